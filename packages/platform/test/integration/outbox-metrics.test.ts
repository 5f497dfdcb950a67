import { expect } from 'chai';
import type { Knex } from 'knex';
import { createDatabase, migrate } from '../../src/db/database.js';
import { createMetrics } from '../../src/metrics.js';
import { InProcessBus } from '../../src/messaging/in-process-bus.js';
import { OutboxRelay, enqueueEvent, outboxMigration } from '../../src/messaging/outbox.js';
import { createTestDatabase, quietLogger, type TestDatabase } from '../../src/testing/backends.js';
import { merchantCreated } from '../support/events.js';

describe('outbox backlog metrics (PostgreSQL)', function () {
  this.timeout(30_000);
  let tdb: TestDatabase;
  let db: Knex;

  before(async () => {
    tdb = await createTestDatabase();
    db = await createDatabase({ url: tdb.url, schema: 'outbox_metrics' });
    await migrate(db, 'outbox_metrics', [outboxMigration]);
  });
  after(async () => {
    await db.destroy();
    await tdb.drop();
  });

  const scrape = async (metrics: ReturnType<typeof createMetrics>, name: string) =>
    (await metrics.registry.getSingleMetric(name)!.get()).values[0]?.value;

  it('reports the events waiting and the age of the oldest at each scrape, 0 once published', async () => {
    const metrics = createMetrics('test', false);
    const relay = new OutboxRelay({ db, bus: new InProcessBus(), logger: quietLogger(), metrics });
    await db.transaction(async (trx) => {
      await enqueueEvent(trx, merchantCreated());
      await enqueueEvent(trx, merchantCreated());
    });
    await db('outbox').update({ created_at: db.raw(`now() - interval '90 seconds'`) });
    expect(await scrape(metrics, 'outbox_waiting_events')).to.equal(2);
    expect(await scrape(metrics, 'outbox_oldest_waiting_seconds')).to.be.within(89, 120);
    await relay.pass();
    expect(await scrape(metrics, 'outbox_waiting_events')).to.equal(0);
    expect(await scrape(metrics, 'outbox_oldest_waiting_seconds')).to.equal(0);
    // The prometheus exposition carries them as the registry renders it.
    expect(await metrics.registry.metrics()).to.match(/^outbox_waiting_events{service="test"} 0$/m);
  });
});
