import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMetrics } from '@stablepay/platform';
import { quietLogger } from '@stablepay/platform/testing';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { failureCounter } from '../../src/perimeter/failure-counter.js';
import { createRateLimitStores, type RateLimitStores } from '../../src/perimeter/rate-limit-store.js';
import { createGatewayMetrics } from '../../src/metrics.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const WINDOW_MS = 400;

for (const kind of ['memory', 'redis'] as const) {
  describe(`failure counts in the ${kind} store`, function () {
    this.timeout(20_000);
    const prefix = `test:${randomBytes(5).toString('hex')}:`;
    let stores: RateLimitStores;

    before(() => {
      stores = createRateLimitStores({
        redisUrl: kind === 'redis' ? REDIS_URL : undefined,
        prefix,
        logger: quietLogger('gateway'),
        errors: createGatewayMetrics(createMetrics('gateway', false)).rateLimitStoreErrors,
      });
      expect(stores.kind).to.equal(kind);
    });
    after(async () => {
      await stores.close();
      if (kind !== 'redis') return;
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });

    it('locks a key at its limit until the window passes, and a clear forgets it', async () => {
      const counter = failureCounter(stores.create('unit'), 2, WINDOW_MS);
      expect(await counter.lockedFor('a')).to.equal(undefined);
      await counter.recordFailure('a');
      expect(await counter.lockedFor('a')).to.equal(undefined);
      await counter.recordFailure('a');
      expect(await counter.lockedFor('a')).to.equal(1);
      expect(await counter.lockedFor('b')).to.equal(undefined);
      await sleep(WINDOW_MS + 100);
      expect(await counter.lockedFor('a')).to.equal(undefined);

      await counter.recordFailure('b');
      await counter.recordFailure('b');
      expect(await counter.lockedFor('b')).to.equal(1);
      await counter.clear('b');
      expect(await counter.lockedFor('b')).to.equal(undefined);
    });

    it('counts attempts sent at once before any outcome, so no more than the limit go on', async () => {
      const counter = failureCounter(stores.create('burst'), 3, 60_000);
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => counter.attempt('account')));
      expect(outcomes.filter((o) => o === undefined)).to.have.length(3);
      for (const locked of outcomes.filter((o) => o !== undefined)) expect(locked).to.be.within(59, 60);
      await counter.clear('account');
      expect(await counter.attempt('account')).to.equal(undefined);
    });
  });
}
