import { expect } from 'chai';
import { chainById } from '@stablepay/contracts';
import { ConfigError } from '@stablepay/platform';
import { loadPaymentsConfig } from '../../src/index.js';
import { TEST_CHAIN_REGISTRY as REGISTRY } from '../support/harness.js';

const SECRET = 'x'.repeat(32);
const chainIds = (c: ReturnType<typeof loadPaymentsConfig>) =>
  c.chainRegistry.chains.map((chain) => chain.chainId);

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
    // the devnet preset
    expect(c.CHAIN_NETWORK).to.equal('devnet');
    expect(chainIds(c)).to.deep.equal([31001, 31002, 31003]);
  });

  it('reads every variable', () => {
    const c = loadPaymentsConfig({
      INTERNAL_TOKEN_SECRET: SECRET,
      PORT: '9000',
      CHECKOUT_URL: 'https://pay.example.com/checkout',
      ALLOW_INSECURE_URLS: 'true',
      CHECKOUT_EXPIRY_SWEEP_MS: '250',
      ENVIRONMENT: 'test',
      CHAIN_REGISTRY: JSON.stringify(REGISTRY),
    });
    expect(c).to.include({
      PORT: 9000,
      ALLOW_INSECURE_URLS: true,
      CHECKOUT_EXPIRY_SWEEP_MS: 250,
      ENVIRONMENT: 'test',
    });
    expect(chainIds(c)).to.deep.equal([31337, 31338]);
    expect(
      chainIds(loadPaymentsConfig({ INTERNAL_TOKEN_SECRET: SECRET, CHAIN_NETWORK: 'mainnet' })),
    ).to.include(8453);
  });

  it('names each chain id from the resolved registry', () => {
    const mainnet = loadPaymentsConfig({
      INTERNAL_TOKEN_SECRET: SECRET,
      CHAIN_NETWORK: 'mainnet',
    }).chainRegistry;
    expect([1, 8453, 137, 42161, 43114, 10].map((id) => chainById(mainnet, id)?.name)).to.deep.equal([
      'ETH',
      'BASE',
      'MATIC',
      'ARB',
      'AVAX',
      'OP',
    ]);
    expect(chainById(mainnet, 5)).to.equal(undefined);
    // a registry replaces the preset: its ids, and only those, are served
    const custom = loadPaymentsConfig({
      INTERNAL_TOKEN_SECRET: SECRET,
      CHAIN_REGISTRY: JSON.stringify(REGISTRY),
    });
    expect(chainById(custom.chainRegistry, 31337)?.name).to.equal('BASE');
    expect(chainById(custom.chainRegistry, 8453)).to.equal(undefined);
  });

  it('fails fast naming each bad variable', () => {
    const bad = () =>
      loadPaymentsConfig({
        INTERNAL_TOKEN_SECRET: 'short',
        ENVIRONMENT: 'staging',
        CHAIN_NETWORK: 'dogecoin',
        CHECKOUT_URL: 'not a url',
      });
    expect(bad).to.throw(ConfigError);
    try {
      bad();
    } catch (err) {
      const text = (err as ConfigError).problems.join('\n');
      for (const name of ['INTERNAL_TOKEN_SECRET', 'ENVIRONMENT', 'CHAIN_NETWORK', 'CHECKOUT_URL'])
        expect(text).to.include(name);
    }
    expect(() => loadPaymentsConfig({ INTERNAL_TOKEN_SECRET: SECRET, CHAIN_REGISTRY: 'nope' })).to.throw(
      ConfigError,
      /CHAIN_REGISTRY/,
    );
    expect(() =>
      loadPaymentsConfig({ INTERNAL_TOKEN_SECRET: SECRET, CHAIN_RPC_URLS_AVAX: 'http://127.0.0.1:9650' }),
    ).to.throw(ConfigError, /CHAIN_RPC_URLS_AVAX/);
  });
});
