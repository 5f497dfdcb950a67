import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrate } from '../../src/db/database.js';
import type { EventBus } from '../../src/messaging/bus.js';
import { subscribeEvents } from '../../src/messaging/consumer.js';
import { inboxMigration } from '../../src/messaging/inbox.js';
import { OUTBOX_TABLE, OutboxRelay, enqueueEvent, outboxMigration } from '../../src/messaging/outbox.js';
import { quietLogger } from '../../src/testing/backends.js';
import { busBackends, dbBackends } from '../support/backends.js';
import { countEffects, effectsMigration, merchantCreated } from '../support/events.js';
import { waitFor } from '../../src/testing.js';

for (const dbBackend of dbBackends) {
  for (const busBackend of busBackends) {
    describe(`outbox and inbox on ${dbBackend.name} with ${busBackend.name}`, function () {
      let producerDb: Knex;
      let consumerDb: Knex;
      let bus: EventBus;
      let closeDbs: () => Promise<void>;
      const relays: OutboxRelay[] = [];
      const deliveries: string[] = [];

      beforeEach(async () => {
        const env = await dbBackend.create();
        producerDb = await env.open('producer');
        consumerDb = await env.open('consumer');
        closeDbs = () => env.close();
        await migrate(producerDb, 'producer', [outboxMigration]);
        await migrate(consumerDb, 'consumer', [inboxMigration, effectsMigration]);
        ({ bus } = await busBackend.create());
        deliveries.length = 0;
        await subscribeEvents({
          bus,
          db: consumerDb,
          consumer: 'consumer',
          logger: quietLogger(),
          retryDelaysMs: [50, 50],
          handlers: {
            'merchant.created': async (event, trx) => {
              await trx('effects').insert({ merchant_id: event.merchantId });
            },
          },
        });
        // A second queue sees every delivery, duplicates included.
        await bus.subscribe({
          queue: 'observer',
          routingKeys: ['merchant.created'],
          handler: async (d) => void deliveries.push(d.message.id),
        });
      });

      afterEach(async () => {
        for (const r of relays.splice(0)) await r.stop();
        await bus.close();
        await closeDbs();
      });

      const relay = (opts: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {}) => {
        const r = new OutboxRelay({
          db: producerDb,
          bus,
          logger: quietLogger(),
          pollIntervalMs: 20,
          ...opts,
        });
        relays.push(r);
        return r;
      };

      it('publishes committed events once and never rolled-back ones', async () => {
        const kept = merchantCreated();
        const dropped = merchantCreated();
        await producerDb.transaction((trx) => enqueueEvent(trx, kept));
        await producerDb
          .transaction(async (trx) => {
            await enqueueEvent(trx, dropped);
            throw new Error('state change failed');
          })
          .catch(() => undefined);
        relay().start();
        await waitFor(async () => (await countEffects(consumerDb, kept.merchantId)) === 1, 'effect');
        // The consumer may apply the effect before the relay has marked the row it published.
        const rows = await waitFor(async () => {
          const all = await producerDb(OUTBOX_TABLE).select('id', 'published_at');
          return all.every((r) => r.published_at !== null) && all;
        }, 'outbox row marked published');
        expect(rows).to.have.length(1);
        expect(rows[0].published_at).to.not.equal(null);
        expect(await countEffects(consumerDb, dropped.merchantId)).to.equal(0);
        await waitFor(() => deliveries.length === 1, 'observer delivery');
      });

      it('re-sends an event whose relay died after publishing and before marking it, applied once', async () => {
        const event = merchantCreated();
        await producerDb.transaction((trx) => enqueueEvent(trx, event));
        const dying = relay({
          leaseMs: 300,
          onPublished: () => {
            throw new Error('relay process died');
          },
        });
        await dying.pass().catch(() => undefined);
        await dying.stop();
        const [row] = await producerDb(OUTBOX_TABLE).where({ id: event.id });
        expect(row.published_at).to.equal(null);
        // Published once already; a new relay takes the row over once the lease runs out.
        relay({ leaseMs: 300 }).start();
        await waitFor(() => deliveries.length === 2, 'second publication');
        await waitFor(async () => (await countEffects(consumerDb, event.merchantId)) === 1, 'effect');
        // The relay marks the row once the broker confirmed the publication, which may be after the
        // consumer applied it: on a loaded machine the mark can trail the effect.
        await waitFor(
          async () => (await producerDb(OUTBOX_TABLE).where({ id: event.id }))[0]?.published_at !== null,
          'outbox row marked published',
        );
        expect(await countEffects(consumerDb, event.merchantId)).to.equal(1);
        expect(deliveries).to.deep.equal([event.id, event.id]);
      });

      it('applies a redelivered message once', async () => {
        const event = merchantCreated();
        const msg = { id: event.id, type: event.type, body: event as unknown as Record<string, unknown> };
        await Promise.all([bus.publish(msg), bus.publish(msg), bus.publish(msg)]);
        await waitFor(() => deliveries.length === 3, 'three deliveries');
        await waitFor(async () => {
          const r = await consumerDb('inbox').where({ message_id: event.id });
          return r.length === 1;
        }, 'inbox row');
        // Drain: one more message through the same queue proves the duplicates were processed.
        const next = merchantCreated();
        await bus.publish({ id: next.id, type: next.type, body: next as unknown as Record<string, unknown> });
        await waitFor(async () => (await countEffects(consumerDb, next.merchantId)) === 1, 'next effect');
        expect(await countEffects(consumerDb, event.merchantId)).to.equal(1);
      });

      it('dead-letters an event of an unknown version with the reason', async () => {
        const event = { ...merchantCreated(), version: 99 };
        await bus.publish({
          id: event.id,
          type: event.type,
          body: event as unknown as Record<string, unknown>,
        });
        const dead = await waitFor(async () => {
          const d = await bus.peekDeadLetters('consumer');
          return d.length === 1 ? d : undefined;
        }, 'dead letter');
        expect(dead[0]!.error).to.match(/version/);
        expect(await countEffects(consumerDb)).to.equal(0);
      });
    });
  }
}
