import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { routes, type RouteSpec } from '@stablepay/contracts';
import {
  AmqpBus,
  createDatabase,
  createMetrics,
  openText,
  startDefinedService,
  verifyInternalToken,
  type InternalClaims,
} from '@stablepay/platform';
import {
  TEST_INTERNAL_SECRET,
  bootService,
  quietLogger,
  type ServiceUnderTest,
} from '@stablepay/platform/testing';
import express from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import type { GatewayConfig } from '../../src/config.js';
import type { GatewayContext } from '../../src/gateway-context.js';
import { gatewayService, type GatewayOptions } from '../../src/service.js';

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
      record.claims = verifyInternalToken(TEST_INTERNAL_SECRET, token ?? '');
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

export type TestGateway = ServiceUnderTest<GatewayConfig, GatewayContext>;

/** What every test gateway is configured with; `upstreamUrl` stands for every service behind it. */
export const gatewayEnv = (upstreamUrl: string, overrides: Record<string, string> = {}) => ({
  NODE_ENV: 'test',
  LOG_LEVEL: 'error',
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

/** Boots the real gateway on port 0 with a fresh database and queue prefix (the platform's kit). */
export const startTestGateway = (
  upstreamUrl: string,
  overrides: Record<string, string> = {},
  options: GatewayOptions = {},
): Promise<TestGateway> => bootService(gatewayService, { env: gatewayEnv(upstreamUrl, overrides), options });

export interface Replica {
  url: string;
  stop(): Promise<void>;
}

/**
 * Another gateway on `first`'s database and queues, with settings of its own: a second replica
 * behind the same balancer, or one whose services are down or whose limits are low. Stop it
 * before `first`, whose close drops the database.
 */
export const startReplica = async (
  first: TestGateway,
  upstreamUrl: string,
  overrides: Record<string, string> = {},
  options: GatewayOptions = {},
): Promise<Replica> => {
  const config = gatewayService.loadConfig({
    ...gatewayEnv(upstreamUrl, overrides),
    INTERNAL_TOKEN_SECRET: TEST_INTERNAL_SECRET,
    DATABASE_URL: first.databaseUrl,
    AMQP_URL: first.amqpUrl,
    AMQP_PREFIX: first.prefix,
  });
  const logger = quietLogger('gateway');
  const db = await createDatabase({ url: first.databaseUrl, schema: config.DATABASE_SCHEMA });
  const bus = new AmqpBus({ url: first.amqpUrl, prefix: first.prefix, logger });
  await bus.connect();
  const deps = { db, bus, logger, metrics: createMetrics('gateway', false) };
  const service = await startDefinedService(gatewayService, {
    config,
    deps,
    port: 0,
    host: '127.0.0.1',
    options,
  });
  return { url: service.url, stop: () => service.stop() };
};

/**
 * The catalogue with every merchant-facing route served (none planned) and any query accepted, for
 * tests of routing, authentication and forwarding through the echo upstream; what the real
 * catalogue refuses is tested on its own.
 */
export const routingCatalogue: RouteSpec[] = routes.map((spec) => ({
  ...spec,
  planned: undefined,
  request: { ...spec.request, query: z.record(z.string(), z.string()) },
}));

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

/**
 * Registers and signs in a fresh merchant (its address left unconfirmed: the gateway itself refuses
 * nothing for that; confirm it with `confirmEmail` where a test needs it).
 */
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
  const me = await call(base, 'GET', '/auth/me', { headers: bearer(login.body.data.access_token) });
  return {
    email,
    merchantPublicId: me.body.data.merchant.id,
    userId: me.body.data.user.id,
    accessToken: login.body.data.access_token,
    refreshToken: login.body.data.refresh_token,
  };
};

/**
 * The account e-mails the gateway asked for, newest first, as written to its outbox; a sealed
 * confirmation link is opened (`link`) as the notifier opens it.
 */
export const accountEmails = async (
  db: Knex,
  email: string,
): Promise<
  Array<{ kind: string; link: string; sealedLink?: string; expiresAt?: string; merchantId: string }>
> => {
  const rows = (await db('outbox')
    .where({ type: 'account.email_requested' })
    .whereRaw(`envelope->'data'->>'email' = ?`, [email])
    .orderBy('created_at', 'desc')) as Array<{ envelope: { data: Record<string, string> } }>;
  return rows.map(({ envelope: { data } }) => ({
    ...(data as { kind: string; merchantId: string }),
    link: data.sealedLink ? openText([TEST_INTERNAL_SECRET], data.sealedLink) : data.link!,
  }));
};

/** The token of the newest confirmation link e-mailed to the address. */
export const confirmationToken = async (db: Knex, email: string): Promise<string> => {
  const link = (await accountEmails(db, email)).find((e) => e.kind === 'email_confirmation')?.link;
  if (!link) throw new Error(`no confirmation e-mail for ${email}`);
  return new URLSearchParams(link.split('?')[1]).get('token')!;
};

/** Confirms the address through the public route, with the token of its newest link. */
export const confirmEmail = async (base: string, db: Knex, email: string): Promise<void> => {
  const token = await confirmationToken(db, email);
  const res = await call(base, 'POST', '/auth/email-confirmation', { body: { token } });
  if (res.status !== 200) throw new Error(`confirmation failed: ${res.status} ${res.text}`);
};

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** A key of the account's merchant: the default scopes, or `scopes` when given. */
export const createKey = async (
  base: string,
  account: Account,
  name = 'server',
  scopes?: string[],
): Promise<{ id: string; key: string }> => {
  const res = await call(base, 'POST', '/api-keys', {
    body: { name, ...(scopes ? { scopes } : {}) },
    headers: bearer(account.accessToken),
  });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${res.text}`);
  return { id: res.body.data.id, key: res.body.data.key };
};
