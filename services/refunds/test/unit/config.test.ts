import { expect } from 'chai';
import { ConfigError } from '@stablepay/platform';
import { loadRefundsConfig } from '../../src/index.js';

const SECRET = 'x'.repeat(32);

describe('refunds configuration', () => {
  it('applies the defaults', () => {
    const c = loadRefundsConfig({ INTERNAL_TOKEN_SECRET: SECRET });
    expect(c).to.include({
      PORT: 8103,
      DATABASE_SCHEMA: 'refunds',
      CHAIN_WATCHER_URL: 'http://127.0.0.1:8102',
      CHAIN_WATCHER_TIMEOUT_MS: 5000,
      REFUND_HOLD_SECONDS: 60,
      DISPATCH_POLL_MS: 1000,
      REFUND_WINDOW_DAYS: 180,
    });
  });

  it('reads every variable', () => {
    const c = loadRefundsConfig({
      INTERNAL_TOKEN_SECRET: SECRET,
      PORT: '9003',
      DATABASE_SCHEMA: 'refunds_eu',
      CHAIN_WATCHER_URL: 'http://chain-watcher:8102',
      CHAIN_WATCHER_TIMEOUT_MS: '2500',
      REFUND_HOLD_SECONDS: '0',
      DISPATCH_POLL_MS: '250',
      REFUND_WINDOW_DAYS: '90',
    });
    expect(c).to.include({
      PORT: 9003,
      DATABASE_SCHEMA: 'refunds_eu',
      CHAIN_WATCHER_URL: 'http://chain-watcher:8102',
      CHAIN_WATCHER_TIMEOUT_MS: 2500,
      REFUND_HOLD_SECONDS: 0,
      DISPATCH_POLL_MS: 250,
      REFUND_WINDOW_DAYS: 90,
    });
  });

  it('fails fast naming each bad variable', () => {
    const bad = () =>
      loadRefundsConfig({
        INTERNAL_TOKEN_SECRET: 'short',
        CHAIN_WATCHER_URL: 'not a url',
        REFUND_HOLD_SECONDS: '-1',
        DISPATCH_POLL_MS: 'often',
        REFUND_WINDOW_DAYS: '0',
      });
    expect(bad).to.throw(ConfigError);
    try {
      bad();
    } catch (err) {
      const text = (err as ConfigError).problems.join('\n');
      for (const name of [
        'INTERNAL_TOKEN_SECRET',
        'CHAIN_WATCHER_URL',
        'REFUND_HOLD_SECONDS',
        'DISPATCH_POLL_MS',
        'REFUND_WINDOW_DAYS',
      ])
        expect(text).to.include(name);
    }
  });
});
