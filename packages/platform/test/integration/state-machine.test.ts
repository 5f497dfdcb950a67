import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createDatabase, migrate } from '../../src/db/database.js';
import { AppError } from '../../src/errors.js';
import { OUTBOX_TABLE, outboxMigration } from '../../src/messaging/outbox.js';
import {
  afterCommit,
  defineStateMachine,
  defineTransitions,
  expectApplied,
  wakingEventWriter,
  type TransitionOutcome,
} from '../../src/state-machine/index.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/backends.js';

type SessionStatus = 'open' | 'complete' | 'expired';
interface Session {
  id: string;
  merchantId: string;
  status: SessionStatus;
  paymentId: string | null;
}

const SESSIONS = 'sm_sessions';
const HISTORY = 'sm_session_history';

const transitions = defineTransitions<SessionStatus, 'complete' | 'expire'>({
  complete: { from: ['open'], to: 'complete' },
  expire: { from: ['open'], to: 'expired' },
});

const toSession = (row: Record<string, unknown>): Session => ({
  id: row.id as string,
  merchantId: row.merchant_id as string,
  status: row.status as SessionStatus,
  paymentId: (row.payment_id as string | null) ?? null,
});

const expiredEvent = (s: Session) => ({
  type: 'checkout.session.expired' as const,
  merchantId: s.merchantId,
  data: { sessionId: s.id, merchantId: s.merchantId, expiredAt: new Date().toISOString() },
});

describe('state machine primitive (PostgreSQL)', function () {
  this.timeout(30_000);
  let tdb: TestDatabase;
  let db: Knex;
  let wakes = 0;
  const merchantId = randomUUID();
  const machine = defineStateMachine({
    entity: 'Checkout session',
    table: SESSIONS,
    transitions,
    toRecord: toSession,
    history: { table: HISTORY, recordColumn: 'session_id' },
    writeEvent: wakingEventWriter('payments', () => wakes++),
  });

  before(async () => {
    tdb = await createTestDatabase();
    db = await createDatabase({ url: tdb.url, schema: 'state_machine' });
    await migrate(db, 'state_machine', [outboxMigration]);
    await db.schema.createTable(SESSIONS, (t) => {
      t.text('id').primary();
      t.uuid('merchant_id').notNullable();
      t.text('status').notNullable();
      t.uuid('payment_id');
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
    await db.schema.createTable(HISTORY, (t) => {
      t.text('session_id').notNullable();
      t.text('status').notNullable();
      t.timestamp('changed_at', { useTz: true }).notNullable();
    });
  });
  after(async () => {
    await db.destroy();
    await tdb.drop();
  });

  const open = async (paymentId: string | null = null): Promise<string> => {
    const id = `cs_${randomUUID()}`;
    await db(SESSIONS).insert({ id, merchant_id: merchantId, status: 'open', payment_id: paymentId });
    return id;
  };
  const statusOf = async (id: string) =>
    ((await db(SESSIONS).where({ id }).first()) as { status: string }).status;
  const eventsFor = async (id: string) =>
    (await db(OUTBOX_TABLE).select('envelope')).filter(
      (r: { envelope: { data: { sessionId: string } } }) => r.envelope.data.sessionId === id,
    );
  const historyOf = async (id: string) =>
    (await db(HISTORY).where({ session_id: id }).select('status')).map((r: { status: string }) => r.status);

  it('moves a record through an allowed transition, records its history and writes its events with it', async () => {
    const id = await open();
    const outcome = await db.transaction((trx) =>
      machine.apply(trx, id, 'expire', { patch: {}, events: expiredEvent }),
    );
    expect(outcome.applied).to.equal(true);
    expect(expectApplied(outcome).status).to.equal('expired');
    expect(await statusOf(id)).to.equal('expired');
    expect(await historyOf(id)).to.deep.equal(['expired']);
    expect(await eventsFor(id)).to.have.length(1);
  });

  it('answers a refused transition with why: already there, illegal, condition, not found', async () => {
    const id = await open();
    await db.transaction((trx) => machine.apply(trx, id, 'complete'));
    const again = await db.transaction((trx) => machine.apply(trx, id, 'complete'));
    const illegal = await db.transaction((trx) => machine.apply(trx, id, 'expire', { events: expiredEvent }));
    const other = await open(randomUUID());
    const condition = await db.transaction((trx) =>
      machine.apply(trx, other, 'complete', { when: (q) => q.whereNull('payment_id') }),
    );
    const missing = await db.transaction((trx) => machine.apply(trx, 'cs_none', 'expire'));
    const otherMerchant = await db.transaction((trx) =>
      machine.apply(trx, other, 'expire', { scope: { merchant_id: randomUUID() } }),
    );
    const kinds = [again, illegal, condition, missing, otherMerchant].map((o) =>
      o.applied ? 'applied' : o.refusal.kind,
    );
    expect(kinds).to.deep.equal(['already', 'illegal', 'condition', 'not_found', 'not_found']);
    expect(await eventsFor(id)).to.have.length(0);
    expect(await statusOf(other)).to.equal('open');
    expect(() => expectApplied(illegal)).to.throw(
      AppError,
      'Checkout session is complete and cannot become expired',
    );
    try {
      expectApplied(missing);
    } catch (err) {
      expect((err as AppError).kind).to.equal('not_found');
    }
  });

  it('lets exactly one of two racing transitions win', async () => {
    const id = await open();
    const outcomes: Array<TransitionOutcome<SessionStatus, Session>> = await Promise.all([
      db.transaction((trx) => machine.apply(trx, id, 'complete')),
      db.transaction((trx) => machine.apply(trx, id, 'expire', { events: expiredEvent })),
    ]);
    expect(outcomes.filter((o) => o.applied)).to.have.length(1);
    expect(await historyOf(id)).to.have.length(1);
  });

  it('discards the transition and its events together when the transaction rolls back', async () => {
    const id = await open();
    const before = wakes;
    const failed = await db
      .transaction(async (trx) => {
        await machine.apply(trx, id, 'expire', { events: expiredEvent });
        throw new Error('later step failed');
      })
      .catch((err: Error) => err.message);
    expect(failed).to.equal('later step failed');
    expect(await statusOf(id)).to.equal('open');
    expect(await eventsFor(id)).to.have.length(0);
    await new Promise((r) => setImmediate(r));
    expect(wakes).to.equal(before);
  });

  it('wakes the relay once after the outermost commit, not before', async () => {
    const id = await open();
    const before = wakes;
    let wokenInside = -1;
    await db.transaction(async (trx) => {
      await trx.transaction(async (nested) => {
        await machine.apply(nested, id, 'expire', { events: expiredEvent });
      });
      await new Promise((r) => setTimeout(r, 20));
      wokenInside = wakes - before;
    });
    await new Promise((r) => setImmediate(r));
    expect(wokenInside).to.equal(0);
    expect(wakes - before).to.equal(1);
  });

  it('runs an afterCommit callback at once outside a transaction', () => {
    let ran = false;
    afterCommit(db, () => (ran = true));
    expect(ran).to.equal(true);
  });

  it('applies a transition to a batch, skipping rows another transaction holds', async () => {
    const ids = [await open(), await open(), await open()];
    const held = ids[0]!;
    let release!: () => void;
    const holding = db.transaction(async (trx) => {
      await trx(SESSIONS).where({ id: held }).forUpdate().first();
      await new Promise<void>((r) => (release = r));
    });
    await new Promise((r) => setTimeout(r, 50));
    const swept = await db.transaction((trx) =>
      machine.applyToMany(trx, 'expire', {
        limit: 10,
        orderBy: 'updated_at',
        skipLocked: true,
        when: (q) => q.whereIn('id', ids),
        events: expiredEvent,
      }),
    );
    release();
    await holding;
    expect(swept.map((s) => s.id).sort()).to.deep.equal(ids.slice(1).sort());
    expect(await statusOf(held)).to.equal('open');
    for (const id of ids.slice(1)) expect(await historyOf(id)).to.deep.equal(['expired']);
  });

  it('notes facts only in the given statuses, without a status change or history', async () => {
    const id = await open();
    const paymentId = randomUUID();
    const noted = await machine.note(db, id, ['open'], { payment_id: paymentId });
    expect(noted?.paymentId).to.equal(paymentId);
    expect(await historyOf(id)).to.deep.equal([]);
    await db.transaction((trx) => machine.apply(trx, id, 'complete'));
    expect(await machine.note(db, id, ['open'], { payment_id: null })).to.equal(undefined);
  });
});
