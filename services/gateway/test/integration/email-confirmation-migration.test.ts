import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createDatabase, migrate } from '@stablepay/platform';
import { createTestDatabase, type TestDatabase } from '@stablepay/platform/testing';
import type { Knex } from 'knex';
import { gatewayMigrations } from '../../src/migrations.js';

/** Accounts made before confirmation existed were never asked to confirm: the migration counts them confirmed. */
describe('gateway: the e-mail confirmation migration', () => {
  let tdb: TestDatabase;
  let db: Knex;

  before(async () => {
    tdb = await createTestDatabase();
    db = await createDatabase({ url: tdb.url, schema: 'gateway' });
  });
  after(async () => {
    await db?.destroy();
    await tdb?.drop();
  });

  it('confirms the accounts that exist when it runs, as of their creation', async () => {
    const index = gatewayMigrations.findIndex((m) => m.name === '0008_email_confirmation');
    expect(index).to.be.greaterThan(0);
    await migrate(db, 'gateway', gatewayMigrations.slice(0, index));
    const merchantId = randomUUID();
    await db('merchants').insert({
      id: merchantId,
      public_id: `sp_live_${merchantId}`,
      name: 'Old Shop',
      blockchain: 'BASE',
      accepted_currencies: ['USDC'],
    });
    const created = new Date('2024-05-01T10:00:00.000Z');
    await db('users').insert({
      id: randomUUID(),
      email: 'old@shop.example',
      password_hash: 'scrypt$10$8$1$x$y',
      merchant_id: merchantId,
      created_at: created,
    });

    await migrate(db, 'gateway', gatewayMigrations);
    const old = await db('users').where({ email: 'old@shop.example' }).first();
    expect(old.email_confirmed_at.toISOString()).to.equal(created.toISOString());
    const columns = await db('users').columnInfo();
    expect(columns).to.include.keys('email_confirmed_at', 'confirmation_sent_at', 'registration_notice_at');
    expect(columns.email_confirmed_at!.nullable).to.equal(true);
  });
});
