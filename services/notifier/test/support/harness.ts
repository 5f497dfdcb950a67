import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import {
  AmqpBus,
  INTERNAL_TOKEN_HEADER,
  buildEvent,
  createDatabase,
  createMetrics,
  signInternalToken,
  type CallerKind,
  type Logger,
  type RunningService,
} from '@stablepay/platform';
import {
  createTestDatabase,
  quietLogger,
  testAmqpUrl,
  testQueuePrefix,
  type TestDatabase,
} from '@stablepay/platform/testing';
import {
  loadNotifierConfig,
  startNotifierService,
  type NotifierConfig,
  type Resolver,
} from '../../src/index.js';
import { merchantData } from './fixtures.js';
import { CERT_NAMES, testCertificate } from './tls.js';
import { waitFor } from './wait.js';

export const INTERNAL_SECRET = 'test-internal-token-secret-0123456789abcdef';
export const KEK = randomBytes(32).toString('hex');

/** Fast timings for tests; each suite can override any of them. */
export const TEST_ENV: Record<string, string> = {
  ALLOW_INSECURE_WEBHOOKS: 'true',
  WEBHOOK_TIMEOUT_MS: '1500',
  WEBHOOK_LEASE_MS: '10000',
  WEBHOOK_RETRY_SCHEDULE: '0,50,100,200',
  WEBHOOK_POLL_MS: '50',
  MAIL_POLL_MS: '50',
  MAIL_RETRY_SCHEDULE: '100,200,400,800,1600',
  MAIL_FROM: 'StablePay <no-reply@pay.example.test>',
};

/** The names the receivers' certificate carries resolve to loopback; the rest does not exist. */
export const loopbackResolver: Resolver = async (host) => {
  if (CERT_NAMES.includes(host.toLowerCase())) return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

export interface CallResult {
  status: number;
  body: any;
}

export interface Harness {
  url: string;
  /** the test's own connection to the notifier's database */
  db: Knex;
  testDb: TestDatabase;
  prefix: string;
  amqpUrl: string;
  env: Record<string, string>;
  config: NotifierConfig;
  service: RunningService;
  call(
    method: string,
    path: string,
    opts?: { merchantId?: string; body?: unknown; caller?: CallerKind },
  ): Promise<CallResult>;
  /** Publishes one envelope `copies` times (a broker redelivery carries the same id); returns its id. */
  publish(type: string, merchantId: string, data: Record<string, unknown>, copies?: number): Promise<string>;
  /** A merchant known to the notifier (merchant.created consumed), with an e-mail address. */
  merchant(email?: string): Promise<string>;
  /** Creates an endpoint through the API; returns its id and secret. */
  endpoint(merchantId: string, url: string, events?: string[]): Promise<{ id: string; secret: string }>;
  deliveryStatus(eventId: string, endpointId: string): Promise<string | undefined>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  resolve?: Resolver;
  logger?: Logger;
  /** Reuse another harness's database and queue prefix (a second replica). */
  share?: { testDb: TestDatabase; prefix: string };
}

export const harnessEnv = async (over: Record<string, string> = {}): Promise<Record<string, string>> => ({
  INTERNAL_TOKEN_SECRET: INTERNAL_SECRET,
  WEBHOOK_SECRET_KEK: KEK,
  WEBHOOK_EXTRA_CA_FILE: (await testCertificate()).caFile,
  MAIL_DIR: mkdtempSync(join(tmpdir(), 'notifier-mail-')),
  ...TEST_ENV,
  ...over,
});

/** The real notifier on port 0, on a fresh PostgreSQL database and RabbitMQ prefix. */
export const startHarness = async (opts: HarnessOptions = {}): Promise<Harness> => {
  const testDb = opts.share?.testDb ?? (await createTestDatabase());
  const amqpUrl = await testAmqpUrl();
  const prefix = opts.share?.prefix ?? testQueuePrefix();
  const env = await harnessEnv({
    DATABASE_URL: testDb.url,
    AMQP_URL: amqpUrl,
    AMQP_PREFIX: prefix,
    ...opts.env,
  });
  const config = loadNotifierConfig(env);
  const logger = opts.logger ?? quietLogger('notifier');
  // The service owns its connections (closed when it stops); the test reads through its own.
  const serviceDb = await createDatabase({ url: testDb.url, schema: config.DATABASE_SCHEMA, poolMax: 20 });
  const db = await createDatabase({ url: testDb.url, schema: config.DATABASE_SCHEMA, poolMax: 4 });
  const bus = new AmqpBus({ url: amqpUrl, prefix, logger });
  await bus.connect();
  const service = await startNotifierService({
    config,
    deps: { db: serviceDb, bus, logger, metrics: createMetrics('notifier', false) },
    port: 0,
    host: '127.0.0.1',
    resolve: opts.resolve ?? loopbackResolver,
  });
  const publisher = new AmqpBus({ url: amqpUrl, prefix, logger: quietLogger('publisher') });
  await publisher.connect();

  const h: Harness = {
    url: service.url,
    db,
    testDb,
    prefix,
    amqpUrl,
    env,
    config,
    service,
    call: async (method, path, o = {}) => {
      const token = signInternalToken(INTERNAL_SECRET, {
        caller: o.caller ?? 'api_key',
        merchantId: o.merchantId,
      });
      const res = await fetch(`${service.url}${path}`, {
        method,
        headers: {
          [INTERNAL_TOKEN_HEADER]: token,
          ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    publish: async (type, merchantId, data, copies = 1) => {
      const event = buildEvent({
        type: type as 'merchant.created',
        producer: 'test',
        merchantId,
        data: data as never,
      });
      for (let i = 0; i < copies; i++) {
        await publisher.publish({
          id: event.id,
          type: event.type,
          body: event as unknown as Record<string, unknown>,
        });
      }
      return event.id;
    },
    merchant: async (email = `merchant-${randomBytes(4).toString('hex')}@shop.example.test`) => {
      const merchantId = randomUUID();
      await h.publish('merchant.created', merchantId, merchantData(merchantId, email));
      await waitFor(
        () => db('merchants').where({ merchant_id: merchantId }).first(),
        10_000,
        'merchant projection',
      );
      return merchantId;
    },
    endpoint: async (
      merchantId,
      url,
      events = ['payment.completed', 'payment.failed', 'refund.created', 'refund.completed', 'refund.failed'],
    ) => {
      const res = await h.call('POST', '/merchant-webhooks/api/create', {
        merchantId,
        body: { url, events },
      });
      if (res.status !== 201) throw new Error(`create endpoint: ${res.status} ${JSON.stringify(res.body)}`);
      return { id: res.body.data.id as string, secret: res.body.data.secret as string };
    },
    deliveryStatus: async (eventId, endpointId) => {
      const row = await db('webhook_deliveries')
        .where({ event_id: eventId, endpoint_id: endpointId, trigger: 'event' })
        .first('status');
      return row?.status as string | undefined;
    },
    close: async () => {
      await service.stop();
      await publisher.close();
      await db.destroy();
      if (!opts.share) await testDb.drop();
    },
  };
  return h;
};

export { metricValue } from '@stablepay/platform/testing';
