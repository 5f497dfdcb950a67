import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import amqp from 'amqplib';
import {
  AmqpBus,
  DEFAULT_RETRY_DELAYS_MS,
  createDatabase,
  createMetrics,
  verifyInternalToken,
  type InternalClaims,
  type RunningService,
} from '@stablepay/platform';
import {
  createTestDatabase,
  quietLogger,
  testAmqpUrl,
  testQueuePrefix,
  type TestDatabase,
} from '@stablepay/platform/testing';
import express from 'express';
import type { Knex } from 'knex';
import { loadGatewayConfig, type GatewayConfig } from '../../src/config.js';
import { startGatewayService } from '../../src/service.js';

export const INTERNAL_SECRET = 'internal-token-secret-for-tests-0123456789';

/** What the echo upstream saw of one forwarded request. */
export interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  claims?: InternalClaims;
  tokenError?: string;
  body: string;
}

export interface EchoUpstream {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

export const PDF_BYTES = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(300_000, 7),
  Buffer.from('\n%%EOF\n'),
]);

/**
 * A real service stand-in: verifies the internal token, records what arrived and echoes it.
 * `x-test-status` picks the status, `x-test-delay` (ms) delays the answer; a path ending in `/pdf`
 * with a `mode` query streams a PDF.
 */
export const startEchoUpstream = async (): Promise<EchoUpstream> => {
  const app = express();
  const seen: Seen[] = [];
  app.use(express.raw({ type: () => true, limit: '5mb' }));
  app.use(async (req, res) => {
    const token = req.header('x-internal-token');
    const record: Seen = {
      method: req.method,
      url: req.originalUrl,
      headers: req.headers,
      body: Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '',
    };
    try {
      record.claims = verifyInternalToken(INTERNAL_SECRET, token ?? '');
    } catch (err) {
      record.tokenError = err instanceof Error ? err.message : String(err);
    }
    seen.push(record);
    const delay = Number(req.header('x-test-delay') ?? 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (req.path.endsWith('/pdf') && req.query.mode) {
      res.status(200).type('application/pdf');
      res.setHeader('Content-Disposition', 'inline; filename="invoice.pdf"');
      res.end(PDF_BYTES);
      return;
    }
    const status = Number(req.header('x-test-status') ?? (req.method === 'POST' ? 201 : 200));
    res.status(status).setHeader('Access-Control-Allow-Origin', 'https://upstream-should-not-decide.example');
    res.json({
      success: true,
      data: { n: seen.length, ...record, headers: undefined, seenHeaders: req.headers },
    });
  });
  // Requests the gateway cut short (oversized bodies) end here, quietly.
  app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(400).end();
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

/** A port nothing listens on. */
export const closedPortUrl = async (): Promise<string> => {
  const server: Server = await new Promise((resolve) => {
    const s = express().listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}`;
};

export interface TestGateway {
  url: string;
  config: GatewayConfig;
  db: Knex;
  bus: AmqpBus;
  service: RunningService;
  stop(): Promise<void>;
}

export interface TestEnv {
  database: TestDatabase;
  amqpUrl: string;
  prefix: string;
}

export const createTestEnv = async (): Promise<TestEnv> => ({
  database: await createTestDatabase(),
  amqpUrl: await testAmqpUrl(),
  prefix: testQueuePrefix(),
});

/**
 * Drops the suite's database and deletes the queues and exchange its gateways declared: durable
 * queues left behind by every run would pile up in the shared broker.
 */
export const cleanupTestEnv = async (env: TestEnv | undefined): Promise<void> => {
  if (!env) return;
  await env.database.drop();
  const connection = await amqp.connect(env.amqpUrl);
  try {
    const ch = await connection.createChannel();
    const queue = `${env.prefix}gateway`;
    for (const name of [
      queue,
      `${queue}.dlq`,
      ...DEFAULT_RETRY_DELAYS_MS.map((d) => `${queue}.retry.${d}`),
    ]) {
      await ch.deleteQueue(name);
    }
    await ch.deleteExchange(`${env.prefix}stablepay.events`);
    await ch.close();
  } finally {
    await connection.close();
  }
};

export const gatewayEnv = (env: TestEnv, upstreamUrl: string, overrides: Record<string, string> = {}) => ({
  NODE_ENV: 'test',
  LOG_LEVEL: 'error',
  DATABASE_URL: env.database.url,
  AMQP_URL: env.amqpUrl,
  AMQP_PREFIX: env.prefix,
  INTERNAL_TOKEN_SECRET: INTERNAL_SECRET,
  JWT_SECRET: 'jwt-secret-for-tests-0123456789abcdefghij',
  API_KEY_PEPPER: 'api-key-pepper-for-tests-0123456789abcdef',
  SCRYPT_COST: '10',
  PAYMENTS_URL: upstreamUrl,
  CHAIN_WATCHER_URL: upstreamUrl,
  REFUNDS_URL: upstreamUrl,
  INVOICING_URL: upstreamUrl,
  NOTIFIER_URL: upstreamUrl,
  ...overrides,
});

/** Boots the real gateway on port 0 against the suite's database and RabbitMQ. */
export const startTestGateway = async (env: Record<string, string>): Promise<TestGateway> => {
  const config = loadGatewayConfig(env);
  const logger = quietLogger('gateway');
  const metrics = createMetrics('gateway', false);
  const db = await createDatabase({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, poolMax: 20 });
  const bus = new AmqpBus({ url: config.AMQP_URL!, prefix: config.AMQP_PREFIX, logger });
  await bus.connect();
  const service = await startGatewayService({
    config,
    deps: { logger, metrics, db, bus },
    port: 0,
    host: '127.0.0.1',
  });
  return { url: service.url, config, db, bus, service, stop: () => service.stop() };
};

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** fetch + JSON, keeping status and headers. */
export const call = async (
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string>; raw?: string } = {},
): Promise<Reply> => {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as Reply['body'], text };
};

export const uniqueEmail = (): string => `user-${randomUUID().slice(0, 8)}@example.com`;
export const STRONG_PASSWORD = 'correct horse battery staple';

export interface Account {
  email: string;
  merchantPublicId: string;
  userId: string;
  accessToken: string;
  refreshToken: string;
}

/** Registers and signs in a fresh merchant. */
export const signUp = async (base: string, name = 'Acme Coffee'): Promise<Account> => {
  const email = uniqueEmail();
  const reg = await call(base, 'POST', '/auth/register', {
    body: {
      email,
      password: STRONG_PASSWORD,
      merchantName: name,
      blockchain: 'BASE',
      acceptedCurrencies: ['USDC'],
    },
  });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${reg.text}`);
  const login = await call(base, 'POST', '/auth/login', { body: { email, password: STRONG_PASSWORD } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return {
    email,
    merchantPublicId: reg.body.data.merchant.id,
    userId: reg.body.data.user.id,
    accessToken: login.body.data.access_token,
    refreshToken: login.body.data.refresh_token,
  };
};

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

export const createKey = async (
  base: string,
  account: Account,
  name = 'server',
): Promise<{ id: string; key: string }> => {
  const res = await call(base, 'POST', '/api-keys', { body: { name }, headers: bearer(account.accessToken) });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${res.text}`);
  return { id: res.body.data.id, key: res.body.data.key };
};

/** Polls until `probe` returns a value (or throws after `timeoutMs`). */
export const eventually = async <T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
};
