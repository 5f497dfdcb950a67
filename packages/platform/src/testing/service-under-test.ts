import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  API_KEY_SCOPES,
  type EventDataInput,
  type EventType,
  type IntegrationEvent,
  type OwningService,
  type ServiceName,
} from '@stablepay/contracts';
import { INTERNAL_TOKEN_HEADER, signInternalToken, type InternalClaims } from '../auth/internal-token.js';
import type { BaseServiceConfig, ServiceRole } from '../config.js';
import { createDatabase } from '../db/database.js';
import { createMetrics } from '../metrics.js';
import { AmqpBus } from '../messaging/amqp-bus.js';
import type { EventBus } from '../messaging/bus.js';
import { buildEvent, toBusMessage } from '../messaging/outbox.js';
import {
  startDefinedService,
  type RunningDefinedService,
  type ServiceDefinition,
} from '../service-definition.js';
import { createTestDatabase, quietLogger, testAmqpUrl, testQueuePrefix } from './backends.js';
import { observeEvents, type EventObserver } from './observe.js';

/** The internal-token secret every service under test is configured with. */
export const TEST_INTERNAL_SECRET = 'test-internal-token-secret-0123456789abcdef';

/** The METRICS_TOKEN every service under test is configured with. */
export const TEST_METRICS_TOKEN = 'test-metrics-token-0123456789abcdef-0123';

/** A service's /metrics text, read as Prometheus does: with the metrics bearer token. */
export const scrapeMetrics = async (baseUrl: string, token = TEST_METRICS_TOKEN): Promise<string> => {
  const res = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`GET ${baseUrl}/metrics answered ${res.status}`);
  return res.text();
};

/**
 * The claims default as the gateway fills them: caller `api_key` when a merchant is given, `public`
 * otherwise; a fresh user or API key id, as the gateway always names one; and for an `api_key`
 * caller every scope (the gateway has checked the route's), so a test narrows them only where scopes
 * are what it is about. A `stepUp` route refuses a user call without `stepUp`.
 */
export interface CallOptions extends Partial<InternalClaims> {
  body?: unknown;
  /** A body sent as is (malformed JSON, wrong content type). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Send no internal token at all. */
  anonymous?: boolean;
  secret?: string;
}

export interface CallResult {
  status: number;
  // Tests read answers of every shape; the contracts' schemas are what they assert against.
  body: any;
  headers: Headers;
}

/** Calls a service as the gateway would: with an internal token naming the caller and merchant. */
export const callService = async (
  baseUrl: string,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<CallResult> => {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
  if (!opts.anonymous) {
    const caller = opts.caller ?? (opts.merchantId ? 'api_key' : 'public');
    const withMerchant = caller !== 'public' && caller !== 'service';
    headers[INTERNAL_TOKEN_HEADER] = signInternalToken(opts.secret ?? TEST_INTERNAL_SECRET, {
      caller,
      merchantId: withMerchant ? opts.merchantId : undefined,
      merchantPublicId: withMerchant ? opts.merchantPublicId : undefined,
      userId: caller === 'user' ? (opts.userId ?? randomUUID()) : undefined,
      apiKeyId: caller === 'api_key' ? (opts.apiKeyId ?? randomUUID()) : undefined,
      scopes: caller === 'api_key' ? (opts.scopes ?? [...API_KEY_SCOPES]) : undefined,
      ...(opts.stepUp && { stepUp: opts.stepUp }),
    });
  }
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
  });
  const text = await res.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: res.status, body, headers: res.headers };
};

export interface PublishOptions {
  merchantId?: string;
  producer?: ServiceName;
  id?: string;
  /** Publish the same message this many times (redelivery tests). */
  times?: number;
}

/** Publishes an integration event on a bus as its producer's relay would (same routing key). */
export const publishEvent = async <T extends EventType>(
  bus: EventBus,
  type: T,
  data: EventDataInput<T>,
  opts: PublishOptions = {},
): Promise<IntegrationEvent<T>> => {
  const merchantId =
    opts.merchantId ?? (data as { merchantId?: string; merchant_id?: string }).merchantId ?? randomUUID();
  const event = buildEvent({ type, producer: opts.producer ?? 'gateway', merchantId, data, id: opts.id });
  for (let i = 0; i < (opts.times ?? 1); i++) {
    await bus.publish(toBusMessage(event));
  }
  return event;
};

export interface ServiceUnderTest<C, X> {
  url: string;
  db: Knex;
  bus: AmqpBus;
  amqpUrl: string;
  prefix: string;
  databaseUrl: string;
  config: C;
  service: RunningDefinedService<X>;
  context: X;
  call(method: string, path: string, opts?: CallOptions): Promise<CallResult>;
  publish<T extends EventType>(
    type: T,
    data: EventDataInput<T>,
    opts?: PublishOptions,
  ): Promise<IntegrationEvent<T>>;
  observe(routingKeys: string[]): Promise<EventObserver>;
  /** Stops the service and drops its database. */
  close(): Promise<void>;
}

export interface BootOptions<O> {
  env?: Record<string, string>;
  options?: O;
  role?: ServiceRole;
  poolMax?: number;
}

/**
 * Boots a real service on port 0 against a fresh PostgreSQL database and a fresh RabbitMQ queue
 * prefix, with the test internal-token secret: what every service's integration tests start from.
 */
export const bootService = async <S extends OwningService, C extends BaseServiceConfig, X, O>(
  definition: ServiceDefinition<S, C, X, O>,
  boot: BootOptions<O> = {},
): Promise<ServiceUnderTest<C, X>> => {
  const testDb = await createTestDatabase();
  const amqpUrl = await testAmqpUrl();
  const prefix = testQueuePrefix();
  const config = definition.loadConfig({
    INTERNAL_TOKEN_SECRET: TEST_INTERNAL_SECRET,
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    DATABASE_URL: testDb.url,
    AMQP_URL: amqpUrl,
    AMQP_PREFIX: prefix,
    ...boot.env,
  });
  const logger = quietLogger(definition.name);
  const db = await createDatabase({
    url: testDb.url,
    schema: config.DATABASE_SCHEMA,
    poolMax: boot.poolMax ?? 20,
  });
  const bus = new AmqpBus({ url: amqpUrl, prefix, logger });
  await bus.connect();
  let service: RunningDefinedService<X>;
  try {
    service = await startDefinedService(definition, {
      config,
      deps: { db, bus, logger, metrics: createMetrics(definition.name, false) },
      port: 0,
      host: '127.0.0.1',
      role: boot.role,
      options: boot.options,
    });
  } catch (err) {
    await bus.close().catch(() => undefined);
    await db.destroy().catch(() => undefined);
    await testDb.drop().catch(() => undefined);
    throw err;
  }
  return {
    url: service.url,
    db,
    bus,
    amqpUrl,
    prefix,
    databaseUrl: testDb.url,
    config,
    service,
    context: service.context,
    call: (method, path, opts) => callService(service.url, method, path, opts),
    publish: (type, data, opts) => publishEvent(bus, type, data, opts),
    observe: (keys) => observeEvents({ amqpUrl, prefix }, keys),
    close: async () => {
      await service.stop();
      await testDb.drop();
    },
  };
};
