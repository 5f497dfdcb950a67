import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  createEvent,
  eventRoutingKey,
  type CreateEventInput,
  type EventDataInput,
  type EventType,
  type IntegrationEvent,
  type ServiceName,
} from '@stablepay/contracts';
import { currentContext } from '../context.js';
import type { Migration } from '../db/database.js';
import { leaseRows } from '../db/lease-rows.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { writeBatched } from './batched-writes.js';
import { errorText, type BusMessage, type EventBus } from './bus.js';
import type { Worker } from '../service.js';

/**
 * Builds an envelope whose data is validated against the contracts' catalogue (a producer cannot
 * publish what its consumers would reject); the correlation id comes from the current request or
 * message unless given.
 */
export const buildEvent = <T extends EventType>(
  input: Omit<CreateEventInput<T>, 'correlationId'> & { correlationId?: string },
): IntegrationEvent<T> =>
  createEvent({
    ...input,
    correlationId: input.correlationId ?? currentContext().correlationId ?? randomUUID(),
  } as CreateEventInput<T>);

/** What goes on the bus for an event: the whole envelope, under its (possibly addressed) routing key. */
export const toBusMessage = <T extends EventType>(event: IntegrationEvent<T>): BusMessage => ({
  id: event.id,
  type: event.type,
  routingKey: eventRoutingKey(event),
  correlationId: event.correlationId,
  body: event as unknown as Record<string, unknown>,
});

export const OUTBOX_TABLE = 'outbox';

export const outboxMigration: Migration = {
  name: '0000_outbox',
  async up(db) {
    await db.schema.createTable(OUTBOX_TABLE, (t) => {
      t.uuid('id').primary();
      t.text('type').notNullable();
      t.jsonb('envelope').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('published_at', { useTz: true });
      t.timestamp('locked_until', { useTz: true });
      t.integer('attempts').notNullable().defaultTo(0);
      t.text('last_error');
    });
    await db.raw(
      `create index outbox_unpublished_idx on ${OUTBOX_TABLE} (created_at) where published_at is null`,
    );
  },
};

/** Writes the event in the caller's transaction, so it exists exactly when the state change does. */
export const enqueueEvent = async <T extends EventType>(
  trx: Knex.Transaction | Knex,
  event: IntegrationEvent<T>,
): Promise<void> => {
  await trx(OUTBOX_TABLE).insert({ id: event.id, type: event.type, envelope: JSON.stringify(event) });
};

/** enqueueEvent for many events, in one statement. */
export const enqueueEvents = async (
  trx: Knex.Transaction | Knex,
  events: ReadonlyArray<IntegrationEvent>,
): Promise<void> => {
  if (events.length === 0) return;
  await trx(OUTBOX_TABLE).insert(
    events.map((event) => ({ id: event.id, type: event.type, envelope: JSON.stringify(event) })),
  );
};

/** Writes one integration event of `producer` to the outbox, in the caller's transaction. */
export type EventWriter = <T extends EventType>(
  trx: Knex.Transaction,
  type: T,
  merchantId: string,
  data: EventDataInput<T>,
) => Promise<void>;

/**
 * The one way a service writes its events: the data is checked against the contracts' catalogue
 * (no consumer ever receives a payload it would reject) and stored with the state change it reports.
 */
export const eventWriter =
  (producer: ServiceName): EventWriter =>
  async (trx, type, merchantId, data) => {
    await writeEventBatched(trx, buildEvent({ type, producer, merchantId, data }));
  };

/**
 * enqueueEvent where a consumer's deliveries share a transaction: the events of all of them go in by
 * one INSERT before it commits (batched-writes.ts); a savepoint's events go in at once, with it.
 */
export const writeEventBatched = <T extends EventType>(
  trx: Knex.Transaction,
  event: IntegrationEvent<T>,
): Promise<void> => writeBatched(trx, enqueueEvents, event as unknown as IntegrationEvent);

/** An outbox row leased for publishing. */
interface ClaimedOutboxRow {
  id: string;
  type: string;
  envelope: IntegrationEvent | string;
  created_at: string;
}

export interface OutboxRelayOptions {
  db: Knex;
  bus: EventBus;
  logger: Logger;
  metrics?: Metrics;
  pollIntervalMs?: number;
  batchSize?: number;
  /** How long a claimed batch is reserved for this relay before another may take it over. */
  leaseMs?: number;
  /** Published rows older than this are deleted. */
  retainPublishedMs?: number;
  /** Called after a message is confirmed and before it is marked; a test seam for crashes. */
  onPublished?: (id: string) => void | Promise<void>;
}

/**
 * Publishes outbox rows with publisher confirms. Rows are claimed with a lease (SKIP LOCKED), so
 * several replicas share the work, and no transaction is held while talking to the broker. A relay
 * that dies after publishing and before marking leaves the row to be published again when its lease
 * runs out: delivery is at least once, and consumers' inboxes make the effect happen once.
 */
export class OutboxRelay implements Worker {
  readonly name = 'outbox-relay';
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  private wakeRequested = false;
  private lastPrune = 0;

  constructor(private readonly opts: OutboxRelayOptions) {
    opts.metrics?.observeOutbox(() => this.backlog());
  }

  /** Rows waiting to be published, and the age in seconds of the oldest (0 when none waits). */
  async backlog(): Promise<{ waiting: number; oldestSeconds: number }> {
    const r = (await this.opts.db.raw(
      `select count(*)::int as waiting,
              coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest
         from ${OUTBOX_TABLE} where published_at is null`,
    )) as { rows: Array<{ waiting: number; oldest: number }> };
    return { waiting: Number(r.rows[0]!.waiting), oldestSeconds: Number(r.rows[0]!.oldest) };
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Ask for a pass now (after a commit), instead of at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wakeRequested = true;
      return;
    }
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.pass()
        .then(() => undefined)
        .catch((err: unknown) => {
          this.opts.logger.warn('outbox relay pass failed', { err: errorText(err) });
        })
        .finally(() => {
          this.running = undefined;
          if (this.stopped) return;
          const again = this.wakeRequested;
          this.wakeRequested = false;
          this.schedule(again ? 0 : (this.opts.pollIntervalMs ?? 250));
        });
    }, ms);
  }

  /** Publishes everything due; returns how many rows were published. */
  async pass(): Promise<number> {
    let total = 0;
    for (;;) {
      const published = await this.publishBatch();
      total += published.count;
      if (!published.full || this.stopped) break;
    }
    await this.maybePrune();
    return total;
  }

  private async publishBatch(): Promise<{ count: number; full: boolean }> {
    const { db, bus } = this.opts;
    const batchSize = this.opts.batchSize ?? 100;
    const leaseMs = this.opts.leaseMs ?? 30_000;
    const claimed = await leaseRows<ClaimedOutboxRow>(db, {
      table: OUTBOX_TABLE,
      open: 'published_at is null',
      alsoSet: 'attempts = attempts + 1',
      orderBy: 'created_at',
      returning: 'id, type, envelope, created_at',
      limit: batchSize,
      leaseMs,
      walkIndex: true,
    });
    const rows = claimed.sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
    if (rows.length === 0) return { count: 0, full: false };
    // The whole batch goes out on the confirm channel at once, in order, and the confirms are awaited
    // together: one broker round trip per batch instead of one per row. A row counts as published
    // only once its own confirm came back; whatever was not confirmed is released for the next pass.
    const outcomes = await Promise.allSettled(
      rows.map(async (row) => {
        const envelope =
          typeof row.envelope === 'string' ? (JSON.parse(row.envelope) as IntegrationEvent) : row.envelope;
        await bus.publish(toBusMessage(envelope));
      }),
    );
    const done: string[] = [];
    let failure: unknown;
    try {
      for (const [i, outcome] of outcomes.entries()) {
        if (outcome.status === 'rejected') {
          failure ??= outcome.reason;
          continue;
        }
        await this.opts.onPublished?.(rows[i]!.id);
        done.push(rows[i]!.id);
        this.opts.metrics?.outboxPublished.inc({ type: rows[i]!.type });
      }
    } catch (err) {
      failure = err;
    }
    if (failure !== undefined) {
      const failed = rows.filter((r) => !done.includes(r.id)).map((r) => r.id);
      await db(OUTBOX_TABLE)
        .whereIn('id', failed)
        .update({ locked_until: null, last_error: errorText(failure).slice(0, 500) })
        .catch(() => undefined);
      if (done.length > 0) await db(OUTBOX_TABLE).whereIn('id', done).update({ published_at: db.fn.now() });
      throw failure;
    }
    await db(OUTBOX_TABLE).whereIn('id', done).update({ published_at: db.fn.now(), locked_until: null });
    return { count: done.length, full: rows.length === batchSize };
  }

  private async maybePrune(): Promise<void> {
    const retain = this.opts.retainPublishedMs ?? 7 * 24 * 3600_000;
    if (Date.now() - this.lastPrune < 60_000) return;
    this.lastPrune = Date.now();
    await this.opts.db.raw(
      `delete from ${OUTBOX_TABLE} where published_at < now() - (? * interval '1 millisecond')`,
      [retain],
    );
  }

  async pendingCount(): Promise<number> {
    const r = await this.opts
      .db(OUTBOX_TABLE)
      .whereNull('published_at')
      .count<{ count: string }[]>('* as count');
    return Number(r[0]?.count ?? 0);
  }
}
