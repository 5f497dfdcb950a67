import { expect } from 'chai';
import {
  maxAttempts,
  nextRetryDelay,
  parseDurationList,
  parseRetryAfter,
  withJitter,
  type RetrySchedule,
} from '../../src/delivery/retry-schedule.js';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '../../src/config.js';

const H = 3_600_000;

describe('retry schedule', () => {
  const schedule: RetrySchedule = {
    delaysMs: parseDurationList(DEFAULT_WEBHOOK_RETRY_SCHEDULE)!,
    jitter: 0.2,
    retryAfterMaxMs: H,
  };

  it('defaults to immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about 27.5 h)', () => {
    expect(schedule.delaysMs).to.deep.equal([0, 5_000, 300_000, 1_800_000, 2 * H, 5 * H, 10 * H, 10 * H]);
    expect(maxAttempts(schedule)).to.equal(8);
    const total = schedule.delaysMs.reduce((a, b) => a + b, 0);
    expect(total / H).to.be.closeTo(27.6, 0.1);
  });

  it('parses units and plain milliseconds, and refuses junk', () => {
    expect(parseDurationList('0, 250, 1.5s, 2m, 1h, 1d, 10ms')).to.deep.equal([
      0,
      250,
      1_500,
      120_000,
      H,
      24 * H,
      10,
    ]);
    expect(parseDurationList('5 minutes')).to.equal(undefined);
    expect(parseDurationList('')).to.equal(undefined);
    expect(parseDurationList('-5s')).to.equal(undefined);
  });

  it('scatters each retry by at most ±20 %', () => {
    expect(withJitter(10_000, 0.2, () => 0)).to.equal(8_000);
    expect(withJitter(10_000, 0.2, () => 0.999999)).to.equal(12_000);
    expect(withJitter(0, 0.2, () => 0)).to.equal(0);
    for (let i = 0; i < 1000; i++) {
      const d = nextRetryDelay(schedule, 2)!;
      expect(d).to.be.within(240_000, 360_000);
    }
  });

  it('stops after the last attempt', () => {
    expect(nextRetryDelay(schedule, 7)).to.be.a('number');
    expect(nextRetryDelay(schedule, 8)).to.equal(undefined);
    expect(nextRetryDelay({ ...schedule, delaysMs: [0] }, 1)).to.equal(undefined);
  });

  it('waits at least as long as Retry-After asks, up to the cap, whatever the jitter', () => {
    expect(nextRetryDelay(schedule, 1, 60_000, () => 0.999)).to.equal(60_000);
    expect(nextRetryDelay(schedule, 1, 100, () => 0.5)).to.equal(5_000);
    expect(nextRetryDelay(schedule, 1, 5 * H, () => 0.5)).to.equal(H);
    expect(nextRetryDelay(schedule, 5, 60_000, () => 0.5)).to.equal(5 * H);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-03-01T12:00:00Z');
    expect(parseRetryAfter('120', now)).to.equal(120_000);
    expect(parseRetryAfter(' 0 ', now)).to.equal(0);
    expect(parseRetryAfter('Sat, 01 Mar 2025 12:00:30 GMT', now)).to.equal(30_000);
    expect(parseRetryAfter('Sat, 01 Mar 2025 11:00:00 GMT', now)).to.equal(undefined);
    expect(parseRetryAfter('soon', now)).to.equal(undefined);
    expect(parseRetryAfter('-5', now)).to.equal(undefined);
    expect(parseRetryAfter(undefined, now)).to.equal(undefined);
  });
});
