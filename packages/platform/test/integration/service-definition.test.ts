import { expect } from 'chai';
import { z } from 'zod';
import { baseConfigShape, loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { InProcessBus } from '../../src/messaging/in-process-bus.js';
import { inboxMigration } from '../../src/messaging/inbox.js';
import { outboxMigration } from '../../src/messaging/outbox.js';
import { createMetrics } from '../../src/metrics.js';
import { defineService, startDefinedService } from '../../src/service-definition.js';
import type { Worker } from '../../src/service.js';
import {
  TEST_INTERNAL_SECRET,
  createTestDatabase,
  publishEvent,
  quietLogger,
  waitFor,
  type TestDatabase,
} from '../../src/testing.js';

const schema = z.object({
  ...baseConfigShape,
  PORT: z.coerce.number().default(0),
  DATABASE_SCHEMA: z.string().default('svc'),
});
const loadTestConfig = (env: Record<string, string | undefined> = {}) =>
  loadConfig(schema, { INTERNAL_TOKEN_SECRET: TEST_INTERNAL_SECRET, ...env }) as z.infer<typeof schema> & {
    DATABASE_SCHEMA: string;
  };

describe('service definitions', () => {
  let testDb: TestDatabase;
  before(async () => {
    testDb = await createTestDatabase();
  });
  after(() => testDb.drop());

  const deps = async () => ({
    db: await createDatabase({ url: testDb.url, schema: 'svc' }),
    bus: new InProcessBus(),
    logger: quietLogger(),
    metrics: createMetrics('svc', false),
  });

  it('will not start a service whose catalogue route has no handler, naming the route', async () => {
    const refunds = defineService({
      name: 'refunds',
      migrations: [outboxMigration, inboxMigration],
      loadConfig: loadTestConfig,
      build: () => ({ routes: {} as never, context: undefined }),
    });
    let failure: unknown;
    try {
      await startDefinedService(refunds, {
        config: loadTestConfig(),
        deps: await deps(),
        port: 0,
        host: '127.0.0.1',
      });
    } catch (err) {
      failure = err;
    }
    expect(String(failure)).to.match(
      /refunds: catalogue route createRefund \(POST \/refunds\/api\/create\) has no handler/,
    );
  });

  const probe = () => {
    const seen: string[] = [];
    let started = false;
    const worker: Worker = {
      name: 'probe',
      start: () => {
        started = true;
      },
      stop: async () => undefined,
    };
    const definition = defineService({
      name: 'invoicing',
      migrations: [outboxMigration, inboxMigration],
      loadConfig: loadTestConfig,
      // No HTTP routes: this test is about consumers and workers.
      catalogue: [],
      build: () => ({
        routes: {} as never,
        consumers: {
          'merchant.created': async (event) => {
            seen.push(event.data.publicId);
          },
        },
        workers: [worker],
        context: { seen },
      }),
    });
    return { definition, seen, started: () => started };
  };

  for (const role of ['api', 'worker', 'all'] as const) {
    it(`runs consumers and workers only where the role asks for them (${role})`, async () => {
      const { definition, seen, started } = probe();
      const d = await deps();
      const service = await startDefinedService(definition, {
        config: loadTestConfig({ SERVICE_ROLE: role }),
        deps: d,
        port: 0,
        host: '127.0.0.1',
      });
      try {
        expect(service.role).to.equal(role);
        const health = await fetch(`${service.url}/readyz`);
        expect(health.status, 'every role answers /readyz').to.equal(200);
        const observed: string[] = [];
        await d.bus.subscribe({
          queue: 'observer',
          routingKeys: ['merchant.created'],
          handler: async ({ message }) => void observed.push(message.id),
        });
        const merchantId = '9d7c2b8e-55a4-4bde-9f3a-0f0e1d2c3b4a';
        await publishEvent(d.bus, 'merchant.created', {
          merchantId,
          publicId: `sp_live_${merchantId}`,
          name: 'Shop',
          blockchain: 'BASE',
          acceptedCurrencies: ['USDC'],
          email: 'shop@example.test',
        });
        if (role === 'api') {
          // Delivered to every subscription at once: once the observer has it, a consumer would too.
          await waitFor(() => observed.length === 1, 5_000, 'event observed');
          expect(seen, 'an api replica consumes nothing').to.deep.equal([]);
          expect(started()).to.equal(false);
        } else {
          await waitFor(() => seen.length === 1, 5_000, 'event consumed');
          expect(started()).to.equal(true);
        }
      } finally {
        await service.stop();
      }
    });
  }
});
