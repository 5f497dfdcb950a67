import { expect } from 'chai';
import { ConfigError } from '@stablepay/platform';
import { loadPaymentsConfig } from '../../src/index.js';

const SECRET = 'x'.repeat(32);

describe('payments configuration', () => {
  it('applies the defaults', () => {
    const c = loadPaymentsConfig({ INTERNAL_TOKEN_SECRET: SECRET });
    expect(c).to.include({
      PORT: 8101,
      DATABASE_SCHEMA: 'payments',
      CHECKOUT_URL: 'http://localhost:8081/',
      ALLOW_INSECURE_URLS: false,
      CHECKOUT_EXPIRY_SWEEP_MS: 5000,
      ENVIRONMENT: 'live',
    });
    expect(c.EXTRA_CHAINS).to.deep.equal({});
  });

  it('reads every variable', () => {
    const c = loadPaymentsConfig({
      INTERNAL_TOKEN_SECRET: SECRET,
      PORT: '9000',
      CHECKOUT_URL: 'https://pay.example.com/checkout',
      ALLOW_INSECURE_URLS: 'true',
      CHECKOUT_EXPIRY_SWEEP_MS: '250',
      ENVIRONMENT: 'test',
      EXTRA_CHAINS: '{"31337":"BASE","31338":"ARB"}',
    });
    expect(c).to.include({
      PORT: 9000,
      ALLOW_INSECURE_URLS: true,
      CHECKOUT_EXPIRY_SWEEP_MS: 250,
      ENVIRONMENT: 'test',
    });
    expect(c.EXTRA_CHAINS).to.deep.equal({ '31337': 'BASE', '31338': 'ARB' });
  });

  it('fails fast naming each bad variable', () => {
    const bad = () =>
      loadPaymentsConfig({
        INTERNAL_TOKEN_SECRET: 'short',
        ENVIRONMENT: 'staging',
        EXTRA_CHAINS: '{"31337":"DOGE"}',
        CHECKOUT_URL: 'not a url',
      });
    expect(bad).to.throw(ConfigError);
    try {
      bad();
    } catch (err) {
      const text = (err as ConfigError).problems.join('\n');
      for (const name of ['INTERNAL_TOKEN_SECRET', 'ENVIRONMENT', 'EXTRA_CHAINS', 'CHECKOUT_URL'])
        expect(text).to.include(name);
    }
    expect(() => loadPaymentsConfig({ INTERNAL_TOKEN_SECRET: SECRET, EXTRA_CHAINS: 'nope' })).to.throw(
      /EXTRA_CHAINS/,
    );
  });
});
