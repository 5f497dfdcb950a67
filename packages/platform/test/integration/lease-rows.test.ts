import { expect } from 'chai';
import type { Knex } from 'knex';
import { createDatabase, migrate } from '../../src/db/database.js';
import { leaseRows, type LeaseRowsOptions } from '../../src/db/lease-rows.js';
import { outboxMigration } from '../../src/messaging/outbox.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/backends.js';

interface Leased {
  id: string;
  type: string;
  attempts: number;
  locked_until: Date;
}

describe('leaseRows over an outbox that keeps its published rows (PostgreSQL)', function () {
  this.timeout(30_000);
  let tdb: TestDatabase;
  let db: Knex;

  const lease = (
    walkIndex: boolean,
    limit = 10,
  ): Omit<LeaseRowsOptions, 'walkIndex'> & { walkIndex: boolean } => ({
    table: 'outbox',
    open: 'published_at is null',
    alsoSet: 'attempts = attempts + 1',
    orderBy: 'created_at',
    returning: 'id, type, attempts, locked_until',
    limit,
    leaseMs: 30_000,
    walkIndex,
  });

  /** Two thousand published rows (their entries left in the open-rows index), then `open` waiting ones. */
  const fill = async (open: string[]) => {
    await db('outbox').truncate();
    await db.raw(
      `insert into outbox (id, type, envelope, created_at)
       select gen_random_uuid(), 'old', '{}', now() - interval '1 hour' + i * interval '1 ms'
         from generate_series(1, 2000) i`,
    );
    await db('outbox').update({ published_at: db.fn.now() });
    for (const [i, type] of open.entries()) {
      await db('outbox').insert({
        id: db.raw('gen_random_uuid()'),
        type,
        envelope: '{}',
        created_at: db.raw(`now() - interval '1 minute' + ? * interval '1 second'`, [i]),
      });
    }
    await db.raw('analyze outbox');
  };

  before(async () => {
    tdb = await createTestDatabase();
    db = await createDatabase({ url: tdb.url, schema: 'lease_rows' });
    await migrate(db, 'lease_rows', [outboxMigration]);
  });
  after(async () => {
    await db.destroy();
    await tdb.drop();
  });

  it('walking the index leases the open rows, oldest first, past a leased one, as the plain statement does', async () => {
    for (const walkIndex of [true, false]) {
      await fill(['first', 'second', 'third', 'fourth']);
      await db('outbox')
        .where({ type: 'second' })
        .update({ locked_until: db.raw(`now() + interval '1 minute'`) });
      const rows = await leaseRows<Leased>(db, lease(walkIndex, 2));
      expect(rows.map((r) => r.type).sort(), `walkIndex ${walkIndex}`).to.deep.equal(['first', 'third']);
      for (const r of rows) {
        expect(r.attempts).to.equal(1);
        expect(r.locked_until.getTime()).to.be.greaterThan(Date.now() + 25_000);
      }
      // The leased ones are not taken again; what is left is the last open row.
      const next = await leaseRows<Leased>(db, lease(walkIndex));
      expect(next.map((r) => r.type)).to.deep.equal(['fourth']);
      expect(await leaseRows<Leased>(db, lease(walkIndex))).to.deep.equal([]);
    }
  });

  it('leaves the planner as it was for the next statement on the same connection', async () => {
    const single = await createDatabase({ url: tdb.url, schema: 'lease_rows', poolMax: 1 });
    try {
      await fill(['only']);
      expect(await leaseRows<Leased>(single, lease(true))).to.have.length(1);
      const settings = (await single.raw(
        `select current_setting('enable_bitmapscan') as bitmap, current_setting('enable_seqscan') as seq`,
      )) as { rows: Array<{ bitmap: string; seq: string }> };
      expect(settings.rows[0]).to.deep.equal({ bitmap: 'on', seq: 'on' });
    } finally {
      await single.destroy();
    }
  });

  it('refuses a lease or a limit that is not an integer rather than write it into the statement', async () => {
    let refused: unknown;
    await leaseRows(db, { ...lease(true), limit: 1.5 }).catch((err: unknown) => (refused = err));
    expect(String(refused)).to.match(/must be integers/);
  });
});
