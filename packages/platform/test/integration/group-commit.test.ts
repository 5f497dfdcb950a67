import { expect } from 'chai';
import type { Knex } from 'knex';
import { createDatabase } from '../../src/db/database.js';
import { writeBatched, type BatchedWrite } from '../../src/messaging/batched-writes.js';
import { GroupCommit } from '../../src/messaging/group-commit.js';
import { INBOX_TABLE, inboxMigration } from '../../src/messaging/inbox.js';
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
    await inboxMigration.up(db);
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

  it("claims a batch's messages in its transaction: each runs once, a repeat or a message already handled not at all", async () => {
    const commits = new GroupCommit(db, 32);
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const claim = (n: number) => ({ consumer: 'effects', messageId: id(n), type: 'test.event' });
    expect(await commits.run(effect('message-1'), claim(1))).to.equal(true);
    const ran = await Promise.all([
      commits.run(effect('message-2'), claim(2)),
      commits.run(effect('message-3'), claim(3)),
      commits.run(effect('message-1-again'), claim(1)),
      // the same message twice in one batch (upper case as a producer may write it): the first only
      commits.run(effect('message-4'), { ...claim(4), messageId: id(4).toUpperCase() }),
      commits.run(effect('message-4-again'), claim(4)),
      commits.run(effect('message-5'), claim(5)),
    ]);
    expect(ran).to.deep.equal([true, true, false, true, false, true]);
    const names = (await db('effects').where('name', 'like', 'message-%').select('name')).map((r) => r.name);
    expect(names.sort()).to.deep.equal(['message-1', 'message-2', 'message-3', 'message-4', 'message-5']);
    // Messages 3 to 5 shared one transaction with their inbox rows.
    expect((await txids(['message-3', 'message-4', 'message-5'])).size).to.equal(1);
    const inbox = await db(INBOX_TABLE).where({ consumer: 'effects' }).select('message_id', 'xmin');
    expect(inbox.map((r) => r.message_id).sort()).to.deep.equal([1, 2, 3, 4, 5].map(id));
    const [fifth] = await db('effects').where({ name: 'message-5' }).select('txid');
    expect(String(inbox.find((r) => r.message_id === id(5))!.xmin)).to.equal(String(fifth.txid));
  });

  it('a failing unit of a batch leaves no inbox row, so its redelivery runs it', async () => {
    const commits = new GroupCommit(db, 32);
    const id = (n: number) => `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`;
    const claim = (n: number) => ({ consumer: 'effects', messageId: id(n), type: 'test.event' });
    const outcomes = await Promise.allSettled([
      commits.run(effect('redelivery-0'), claim(0)),
      commits.run(effect('redelivery-1'), claim(1)),
      commits.run(async () => {
        throw new Error('handler failed');
      }, claim(2)),
      commits.run(effect('redelivery-3'), claim(3)),
    ]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(
      await db(INBOX_TABLE)
        .where({ message_id: id(2) })
        .first(),
    ).to.equal(undefined);
    expect(await commits.run(effect('redelivery-2'), claim(2))).to.equal(true);
    expect(await commits.run(effect('redelivery-2-again'), claim(2))).to.equal(false);
  });

  it("writes the rows a batch's units hand to writeBatched in one call, and a unit alone's at once", async () => {
    const commits = new GroupCommit(db, 32);
    const calls: string[][] = [];
    const write: BatchedWrite<string> = async (trx, names) => {
      calls.push(names);
      const { rows } = (await trx.raw('select txid_current() as txid')) as { rows: Array<{ txid: string }> };
      await trx('effects').insert(names.map((name) => ({ name, txid: rows[0]!.txid })));
    };
    const batched = (name: string) => (trx: Knex.Transaction) => writeBatched(trx, write, name);
    await commits.run(batched('batched-alone'));
    expect(calls).to.deep.equal([['batched-alone']]);
    await Promise.all(['batched-1', 'batched-2', 'batched-3'].map((n) => commits.run(batched(n))));
    expect(calls.slice(1).flat()).to.deep.equal(['batched-1', 'batched-2', 'batched-3']);
    expect(calls.length).to.be.below(4);
    // The batch's failing write fails the batch; each unit then runs, and writes, on its own.
    calls.length = 0;
    const outcomes = await Promise.allSettled(
      ['batched-4', 'batched-5', 'batched-1', 'batched-6'].map((n) => commits.run(batched(n))),
    );
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(calls.some((c) => c.length > 1)).to.equal(true);
    expect(calls.slice(-3)).to.deep.equal([['batched-5'], ['batched-1'], ['batched-6']]);
    expect((await txids(['batched-5', 'batched-6'])).size).to.equal(2);
  });
});
