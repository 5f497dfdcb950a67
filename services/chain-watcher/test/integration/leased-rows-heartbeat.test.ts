import { expect } from 'chai';
import type { Knex } from 'knex';
import { createDatabase } from '@stablepay/platform';
import { createTestDatabase, quietLogger, type TestDatabase } from '@stablepay/platform/testing';
import { leaseDueRows } from '../../src/work-rows/lease-due-rows.js';
import {
  heartbeatEvery,
  leasedBatchWorker,
  type BatchHandler,
} from '../../src/work-rows/leased-batch-worker.js';
import { renewRowLeases, rescheduleRow, type WorkTable } from '../../src/work-rows/row-schedule.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Probe {
  id: string;
}

/**
 * The leases of the CCTP, gasless, transfer and verification workers are short and renewed while a
 * replica works on a row: a step slower than the lease keeps its row, and a row whose holder died
 * (nothing renews it) is due to another replica once the lease runs out.
 */
describe('leased work rows: a short lease, renewed while the work runs (PostgreSQL)', function () {
  this.timeout(20_000);
  const LEASE_MS = 600;
  const W: WorkTable = { table: 'probe_rows', key: 'id' };
  let database: TestDatabase;
  let db: Knex;

  before(async () => {
    database = await createTestDatabase();
    db = await createDatabase({ url: database.url, schema: 'public' });
    await db.schema.createTable(W.table, (t) => {
      t.text('id').primary();
      t.timestamp('next_check_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('locked_until', { useTz: true });
      t.integer('backoff_step').notNullable().defaultTo(0);
      t.timestamp('updated_at', { useTz: true });
    });
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const lease = (limit: number) =>
    leaseDueRows<Probe>(db, { table: W.table, key: W.key, open: 'true', limit, leaseMs: LEASE_MS });

  type HandlerFor = (due: readonly Probe[]) => ((row: Probe) => Promise<void>) | BatchHandler<Probe>;

  /**
   * Runs a worker built as the CCTP, gasless, transfer and verification workers are, whose handler
   * (`place` puts it in a step or in a batch's finish) holds rows for five leases while another
   * replica asks for due rows every half lease; what that replica got meanwhile.
   */
  const takenWhileHeld = async (
    place: (slow: (rows: readonly Probe[]) => Promise<void>) => HandlerFor,
  ): Promise<string[]> => {
    let takenMeanwhile: string[] | undefined;
    const slow = async (rows: readonly Probe[]) => {
      const taken: string[] = [];
      for (let i = 0; i < 10; i++) {
        await sleep(LEASE_MS / 2);
        taken.push(...(await lease(10)).map((r) => r.id));
      }
      for (const row of rows) await rescheduleRow(db, W, row.id, { delayMs: 60_000, backoffStep: 0 });
      takenMeanwhile = taken;
    };
    const worker = leasedBatchWorker({
      name: 'probe',
      intervalMs: 60_000,
      logger: quietLogger(),
      batchSize: 10,
      concurrency: 2,
      lease,
      release: async () => {},
      heartbeat: {
        everyMs: heartbeatEvery(LEASE_MS),
        renew: (rows) =>
          renewRowLeases(
            db,
            W,
            rows.map((r) => r.id),
            LEASE_MS,
          ),
      },
      correlationOf: () => null,
      handlerFor: place(slow),
    });
    await worker.start();
    while (!takenMeanwhile) await sleep(50);
    await worker.stop();
    return takenMeanwhile;
  };

  it('keeps a row with the replica whose step outlasts the lease, and no other replica takes it', async () => {
    await db(W.table).insert({ id: 'slow' });
    expect(await takenWhileHeld((slow) => () => (row) => slow([row]))).to.deep.equal([]);
  });

  it('keeps every row of a batch committed at its end (verdicts) until that commit, however long', async () => {
    await db(W.table).insert([{ id: 'checked-1' }, { id: 'checked-2' }]);
    const taken = await takenWhileHeld((slow) => (due) => ({
      handle: async () => {},
      finish: () => slow(due),
    }));
    expect(taken).to.deep.equal([]);
  });

  it('hands a row whose holder died to another replica within the lease', async () => {
    await db(W.table).insert({ id: 'orphan' });
    const [taken] = await lease(1);
    expect(taken?.id).to.equal('orphan');
    // Its holder dies: nothing renews the lease.
    expect(await lease(1)).to.deep.equal([]);
    await sleep(LEASE_MS + 100);
    expect((await lease(1)).map((r) => r.id)).to.deep.equal(['orphan']);
  });

  it('does not renew a lease that already ran out (another replica may hold the row)', async () => {
    await db(W.table).insert({ id: 'lapsed', locked_until: db.raw(`now() - interval '1 second'`) });
    await renewRowLeases(db, W, ['lapsed'], LEASE_MS);
    const row = (await db(W.table).where({ id: 'lapsed' }).first()) as { locked_until: Date };
    expect(row.locked_until.getTime() < Date.now()).to.equal(true);
  });
});
