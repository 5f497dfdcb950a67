import { randomBytes } from 'node:crypto';
import amqp from 'amqplib';
import pg from 'pg';
import { createLogger, type Logger } from '../logger.js';

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_AMQP = 'amqp://guest:guest@127.0.0.1:5672';

export const randomSuffix = (): string => randomBytes(5).toString('hex');

/** A prefix for exchange and queue names unique to this test run. */
export const testQueuePrefix = (): string => `t${randomSuffix()}.`;

export const quietLogger = (service = 'test'): Logger =>
  createLogger({
    service,
    level: process.env.TEST_LOG_LEVEL ?? 'error',
    silent: !process.env.TEST_LOG_LEVEL,
  });

/** Tries a few times (a loaded machine can be slow to accept); returns the last error, if any. */
const probe = async (attempt: () => Promise<void>, tries = 3): Promise<unknown> => {
  let last: unknown;
  for (let i = 0; i < tries; i++) {
    try {
      await attempt();
      return undefined;
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 500 * (i + 1)));
    }
  }
  return last;
};

const probePg = (url: string) =>
  probe(async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    try {
      await client.connect();
      await client.query('select 1');
    } finally {
      await client.end().catch(() => undefined);
    }
  });

const probeAmqp = (url: string) =>
  probe(async () => {
    const c = await amqp.connect(url, { timeout: 10_000 });
    await c.close();
  });

let pgAdminUrl: Promise<string> | undefined;
let amqpUrl: Promise<string> | undefined;
const started: Array<{ stop(): Promise<unknown> }> = [];

/** Uses the PostgreSQL the environment names (or the one on loopback), else starts a container. */
const resolvePgAdminUrl = async (): Promise<string> => {
  const explicit = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const url = explicit ?? DEFAULT_PG;
  const err = await probePg(url);
  if (!err) return url;
  // A server the environment names is meant to be used: say why it failed instead of guessing.
  if (explicit) throw new Error(`PostgreSQL at the configured URL is unreachable: ${String(err)}`);
  const { PostgreSqlContainer } = await import('./containers.js').then((m) => m.loadContainers());
  const container = await new PostgreSqlContainer('postgres:15-alpine').start();
  started.push(container);
  return container.getConnectionUri();
};

const resolveAmqpUrl = async (): Promise<string> => {
  const explicit = process.env.TEST_AMQP_URL ?? process.env.AMQP_URL;
  const url = explicit ?? DEFAULT_AMQP;
  const err = await probeAmqp(url);
  if (!err) return url;
  if (explicit) throw new Error(`RabbitMQ at the configured URL is unreachable: ${String(err)}`);
  const { RabbitMQContainer } = await import('./containers.js').then((m) => m.loadContainers());
  const container = await new RabbitMQContainer('rabbitmq:3.13-alpine').start();
  started.push(container);
  return container.getAmqpUrl();
};

export const testAmqpUrl = (): Promise<string> => (amqpUrl ??= resolveAmqpUrl());

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, empty database for one test suite; dropped afterwards. */
export const createTestDatabase = async (): Promise<TestDatabase> => {
  const admin = await (pgAdminUrl ??= resolvePgAdminUrl());
  const name = `sp_test_${randomSuffix()}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
};

export const stopTestContainers = async (): Promise<void> => {
  await Promise.all(started.splice(0).map((c) => c.stop()));
};
