import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createDatabase, migrate } from '../../src/db/database.js';
import { createMetrics } from '../../src/metrics.js';
import { AmqpBus } from '../../src/messaging/amqp-bus.js';
import { subscribeEvents } from '../../src/messaging/consumer.js';
import { inboxMigration } from '../../src/messaging/inbox.js';
import { OUTBOX_TABLE, OutboxRelay, enqueueEvent, outboxMigration } from '../../src/messaging/outbox.js';
import {
  createTestDatabase,
  quietLogger,
  testAmqpUrl,
  testQueuePrefix,
  type TestDatabase,
} from '../../src/testing/backends.js';
import { countEffects, effectsMigration, merchantCreated } from '../support/events.js';
import { waitFor } from '../../src/testing.js';

const fixture = fileURLToPath(new URL('../fixtures/die-midway.ts', import.meta.url));

const runUntilKilled = (env: Record<string, string>) => {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
  });
  const exit = new Promise<NodeJS.Signals | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (_code, signal) => resolve(signal));
  });
  return { ready, exit };
};

describe('nothing is lost or done twice when a process is killed (PostgreSQL, RabbitMQ)', function () {
  this.timeout(60_000);
  let tdb: TestDatabase;
  let producerDb: Knex;
  let consumerDb: Knex;
  let amqpUrl: string;
  let prefix: string;
  const buses: AmqpBus[] = [];

  const newBus = async () => {
    const bus = new AmqpBus({ url: amqpUrl, prefix, logger: quietLogger() });
    await bus.connect();
    buses.push(bus);
    return bus;
  };

  beforeEach(async () => {
    tdb = await createTestDatabase();
    producerDb = await createDatabase({ url: tdb.url, schema: 'producer' });
    consumerDb = await createDatabase({ url: tdb.url, schema: 'consumer' });
    await migrate(producerDb, 'producer', [outboxMigration]);
    await migrate(consumerDb, 'consumer', [inboxMigration, effectsMigration]);
    amqpUrl = await testAmqpUrl();
    metrics = createMetrics('test', false);
    prefix = testQueuePrefix();
  });

  afterEach(async () => {
    for (const b of buses.splice(0)) await b.close();
    await producerDb.destroy();
    await consumerDb.destroy();
    await tdb.drop();
  });

  const childEnv = (role: string) => ({
    ROLE: role,
    DATABASE_URL: tdb.url,
    AMQP_URL: amqpUrl,
    AMQP_PREFIX: prefix,
  });

  let metrics = createMetrics('test', false);
  const duplicates = async () =>
    (await metrics.handlerOutcomes.get()).values.find((v) => v.labels.outcome === 'duplicate')?.value ?? 0;

  const consume = async (bus: AmqpBus, seen: string[]) => {
    await subscribeEvents({
      bus,
      metrics,
      db: consumerDb,
      consumer: 'consumer',
      logger: quietLogger(),
      handlers: {
        'merchant.created': async (event, trx) => {
          seen.push(event.id);
          await trx('effects').insert({ merchant_id: event.merchantId });
        },
      },
    });
  };

  it('a relay killed between publishing and marking: the event is sent again and applied once', async () => {
    const bus = await newBus();
    const seen: string[] = [];
    await consume(bus, seen);
    const event = merchantCreated();
    await producerDb.transaction((trx) => enqueueEvent(trx, event));

    expect(await runUntilKilled(childEnv('relay')).exit).to.equal('SIGKILL');
    const [row] = await producerDb(OUTBOX_TABLE).where({ id: event.id });
    expect(row.published_at, 'the dead relay never marked it').to.equal(null);
    await waitFor(() => seen.length === 1, 'first delivery');

    const relay = new OutboxRelay({ db: producerDb, bus, logger: quietLogger(), pollIntervalMs: 50 });
    relay.start();
    try {
      await waitFor(async () => {
        const [r] = await producerDb(OUTBOX_TABLE).where({ id: event.id });
        return r.published_at !== null;
      }, 'republished and marked');
      await waitFor(
        async () => (await consumerDb('inbox').where({ message_id: event.id })).length === 1,
        'inbox',
      );
      // The duplicate reached the handler's transaction and was dropped by the inbox.
      await waitFor(async () => (await duplicates()) >= 1, 'the second delivery, dropped by the inbox');
      expect(await countEffects(consumerDb, event.merchantId)).to.equal(1);
    } finally {
      await relay.stop();
    }
  });

  it('a consumer killed after committing and before acknowledging: redelivered, applied once', async () => {
    const event = merchantCreated();
    const child = runUntilKilled(childEnv('consumer'));
    await child.ready;
    const bus = await newBus();
    await bus.publish({ id: event.id, type: event.type, body: event as unknown as Record<string, unknown> });
    expect(await child.exit).to.equal('SIGKILL');
    expect(await countEffects(consumerDb, event.merchantId), 'committed before death').to.equal(1);

    const seen: string[] = [];
    const survivor = await newBus();
    await consume(survivor, seen);
    // The unacknowledged message comes back; the inbox turns it into a no-op.
    const next = merchantCreated();
    await survivor.publish({
      id: next.id,
      type: next.type,
      body: next as unknown as Record<string, unknown>,
    });
    await waitFor(() => seen.includes(next.id), 'later message');
    await waitFor(async () => (await duplicates()) >= 1, 'the redelivery, dropped by the inbox');
    expect(await countEffects(consumerDb, event.merchantId)).to.equal(1);
    expect(seen).to.not.include(event.id);
  });
});
