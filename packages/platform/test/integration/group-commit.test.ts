import { expect } from 'chai';
import type { Knex } from 'knex';
import { createDatabase } from '../../src/db/database.js';
import { GroupCommit } from '../../src/messaging/group-commit.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/backends.js';

describe('group commit (PostgreSQL)', function () {
  this.timeout(30_000);
  let tdb: TestDatabase;
  let db: Knex;

  before(async () => {
    tdb = await createTestDatabase();
    db = await createDatabase({ url: tdb.url, schema: 'group_commit' });
    await db.schema.createTable('effects', (t) => {
      t.text('name').primary();
      t.bigInteger('txid').notNullable();
    });
  });
  after(async () => {
    await db.destroy();
    await tdb.drop();
  });

  const effect = (name: string) => async (trx: Knex.Transaction) => {
    const { rows } = (await trx.raw('select txid_current() as txid')) as { rows: Array<{ txid: string }> };
    await trx('effects').insert({ name, txid: rows[0]!.txid });
  };
  const txids = async (names: string[]) =>
    new Set((await db('effects').whereIn('name', names).select('txid')).map((r) => String(r.txid)));

  it('commits work that arrives together in one transaction, and work alone in its own', async () => {
    const commits = new GroupCommit(db, 32);
    await commits.run(effect('alone'));
    // The first runs at once; the nine queued behind it share the next transaction.
    const names = Array.from({ length: 10 }, (_, i) => `together-${i}`);
    await Promise.all(names.map((n) => commits.run(effect(n))));
    expect(await db('effects').count<{ count: string }[]>('* as count')).to.deep.equal([{ count: '11' }]);
    expect((await txids(names.slice(1))).size).to.equal(1);
    expect([...(await txids(['alone']))][0]).to.not.be.oneOf([...(await txids(names.slice(1)))]);
  });

  it('a failing unit fails alone: the others of its batch commit, nothing of it stays', async () => {
    const commits = new GroupCommit(db, 32);
    const outcomes = await Promise.allSettled([
      commits.run(effect('first')),
      commits.run(effect('ok-1')),
      commits.run(async (trx) => {
        await effect('doomed')(trx);
        // A duplicate key: the SQL error aborts whatever transaction it runs in.
        await trx('effects').insert({ name: 'ok-1', txid: 0 });
      }),
      commits.run(effect('ok-2')),
    ]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const names = (await db('effects').select('name')).map((r) => r.name);
    expect(names).to.include.members(['first', 'ok-1', 'ok-2']);
    expect(names).to.not.include('doomed');
    // Each of the batch ran again on its own.
    expect((await txids(['ok-1', 'ok-2'])).size).to.equal(2);
  });
});
