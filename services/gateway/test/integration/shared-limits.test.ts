import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import {
  metricValue,
  scrapeMetrics,
  startServiceProcess,
  type ServiceProcess,
} from '@stablepay/platform/testing';
import {
  STRONG_PASSWORD,
  call,
  closedPortUrl,
  gatewayEnv,
  signUp,
  startEchoUpstream,
  startReplica,
  startTestGateway,
  type EchoUpstream,
  type Replica,
  type TestGateway,
} from './harness.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

const LIMITS = {
  RATE_LIMIT_PUBLIC_PER_MINUTE: '4',
  SIGNIN_LOCKOUT_FAILURES: '3',
  RATE_LIMIT_FAILED_KEYS_PER_MINUTE: '3',
};

describe('gateway: rate limits shared across replicas through Redis', function () {
  this.timeout(90_000);
  // A key prefix of this run's own, so that runs sharing the Redis never share counts.
  const prefix = `test:${randomBytes(5).toString('hex')}:`;
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  let upstream: EchoUpstream;
  let first: TestGateway;
  let second: ServiceProcess;

  before(async () => {
    await redis.connect();
    upstream = await startEchoUpstream();
    const shared = { ...LIMITS, REDIS_URL, REDIS_KEY_PREFIX: prefix };
    first = await startTestGateway(upstream.url, shared);
    // The second replica is a process of its own: nothing but Redis is shared with the first.
    second = await startServiceProcess('gateway', MAIN, {
      ...gatewayEnv(upstream.url, shared),
      DATABASE_URL: first.databaseUrl,
      AMQP_URL: first.amqpUrl,
      AMQP_PREFIX: first.prefix,
      LOG_LEVEL: 'info',
    });
  });
  after(async () => {
    await second?.stop();
    await first?.close();
    await upstream?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('holds a per-address limit across two gateway processes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const replica = i % 2 === 0 ? first.url : second.url;
      statuses.push((await call(replica, 'GET', '/chains')).status);
    }
    expect(statuses).to.deep.equal([200, 200, 200, 200, 429, 429]);
    // The counts are in Redis, under this deployment's prefix.
    expect(await redis.keys(`${prefix}public:*`)).to.have.length(1);
  });

  it('locks an account on every replica once its failures, spread over both, reach the limit', async () => {
    const account = await signUp(first.url);
    const wrong = (url: string) =>
      call(url, 'POST', '/auth/login', { body: { email: account.email, password: 'not-the-password' } });
    expect((await wrong(first.url)).status).to.equal(401);
    expect((await wrong(second.url)).status).to.equal(401);
    expect((await wrong(first.url)).status).to.equal(401);
    for (const url of [second.url, first.url]) {
      const locked = await call(url, 'POST', '/auth/login', {
        body: { email: account.email, password: STRONG_PASSWORD },
      });
      expect(locked.status).to.equal(429);
      expect(locked.body.details[0].code).to.equal('account_locked');
    }
  });

  it('throttles an address guessing keys on every replica', async () => {
    const guess = (url: string) =>
      call(url, 'GET', '/payments/api/list', {
        headers: { 'x-api-key': `sk_live_${randomBytes(24).toString('base64url')}` },
      });
    const statuses = [
      (await guess(first.url)).status,
      (await guess(second.url)).status,
      (await guess(first.url)).status,
      (await guess(second.url)).status,
      (await guess(first.url)).status,
    ];
    expect(statuses).to.deep.equal([401, 401, 401, 429, 429]);
  });
});

describe('gateway: rate limits without a shared store', function () {
  this.timeout(60_000);
  let upstream: EchoUpstream;
  let gw: TestGateway;
  let replica: Replica;

  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway(upstream.url, LIMITS);
    replica = await startReplica(gw, upstream.url, LIMITS);
  });
  after(async () => {
    await replica?.stop();
    await gw?.close();
    await upstream?.close();
  });

  it('counts in each replica’s memory without REDIS_URL', async () => {
    const onFirst: number[] = [];
    for (let i = 0; i < 5; i++) onFirst.push((await call(gw.url, 'GET', '/chains')).status);
    expect(onFirst).to.deep.equal([200, 200, 200, 200, 429]);
    expect((await call(replica.url, 'GET', '/chains')).status).to.equal(200);
  });

  it('keeps limiting in memory while Redis does not answer, and counts each fallback', async () => {
    const unreachable = await startTestGateway(upstream.url, {
      ...LIMITS,
      REDIS_URL: (await closedPortUrl()).replace('http:', 'redis:'),
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await call(unreachable.url, 'GET', '/chains')).status);
      expect(statuses).to.deep.equal([200, 200, 200, 200, 429]);
      const errors = metricValue(await scrapeMetrics(unreachable.url), 'rate_limit_store_errors_total', {
        limiter: 'public',
      });
      // Each request's count, and the first loading of the store's scripts.
      expect(errors).to.be.at.least(5);
    } finally {
      await unreachable.close();
    }
  });
});
