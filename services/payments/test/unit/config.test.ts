import { expect } from 'chai';
import { chainById } from '@stablepay/contracts';
import { ConfigError } from '@stablepay/platform';
import { loadPaymentsConfig } from '../../src/index.js';
import { TEST_CHAIN_REGISTRY as REGISTRY } from '../support/harness.js';

const SECRET = 'x'.repeat(32);
const SECRETS = { INTERNAL_TOKEN_SECRET: SECRET, FEE_QUOTE_SECRET: 'q'.repeat(32) };
const chainIds = (c: ReturnType<typeof loadPaymentsConfig>) =>
  c.chainRegistry.chains.map((chain) => chain.chainId);

describe('payments configuration', () => {
  it('applies the defaults', () => {
    const c = loadPaymentsConfig(SECRETS);
    expect(c).to.include({
      PORT: 8101,
      DATABASE_SCHEMA: 'payments',
      CHECKOUT_URL: 'http://localhost:8081/',
      ALLOW_INSECURE_URLS: false,
      CHECKOUT_EXPIRY_SWEEP_MS: 5000,
      ENVIRONMENT: 'live',
      CHAIN_WATCHER_URL: 'http://127.0.0.1:8102',
      CHAIN_WATCHER_TIMEOUT_MS: 5000,
      FEE_QUOTE_VALID_SECONDS: 300,
      FEE_QUOTE_GAS_BUFFER_PERCENT: '20',
      FEE_QUOTE_MIN_GAS_FEE: '0.50',
      FEE_QUOTE_ATTESTATION_FEE_BPS: '1',
      GASLESS_FEE_BEARER: 'customer',
      GASLESS_PAYER_LIMIT_PER_MINUTE: 5,
    });
    // the devnet preset
    expect(c.CHAIN_NETWORK).to.equal('devnet');
    expect(chainIds(c)).to.deep.equal([31001, 31002, 31003]);
  });

  it('reads every variable', () => {
    const c = loadPaymentsConfig({
      ...SECRETS,
      PORT: '9000',
      CHECKOUT_URL: 'https://pay.example.com/checkout',
      ALLOW_INSECURE_URLS: 'true',
      CHECKOUT_EXPIRY_SWEEP_MS: '250',
      ENVIRONMENT: 'test',
      CHAIN_REGISTRY: JSON.stringify(REGISTRY),
      CHAIN_WATCHER_URL: 'http://chain-watcher:8102',
      CHAIN_WATCHER_TIMEOUT_MS: '700',
      FEE_QUOTE_VALID_SECONDS: '120',
      FEE_QUOTE_GAS_BUFFER_PERCENT: '12.5',
      FEE_QUOTE_MIN_GAS_FEE: '0.25',
      FEE_QUOTE_ATTESTATION_FEE_BPS: '1.3',
      GASLESS_FEE_BEARER: 'merchant',
      GASLESS_PAYER_LIMIT_PER_MINUTE: '2',
    });
    expect(c).to.include({
      PORT: 9000,
      ALLOW_INSECURE_URLS: true,
      CHECKOUT_EXPIRY_SWEEP_MS: 250,
      ENVIRONMENT: 'test',
      CHAIN_WATCHER_URL: 'http://chain-watcher:8102',
      CHAIN_WATCHER_TIMEOUT_MS: 700,
      FEE_QUOTE_VALID_SECONDS: 120,
      FEE_QUOTE_GAS_BUFFER_PERCENT: '12.5',
      FEE_QUOTE_MIN_GAS_FEE: '0.25',
      FEE_QUOTE_ATTESTATION_FEE_BPS: '1.3',
      GASLESS_FEE_BEARER: 'merchant',
      GASLESS_PAYER_LIMIT_PER_MINUTE: 2,
    });
    expect(chainIds(c)).to.deep.equal([31337, 31338]);
    expect(chainIds(loadPaymentsConfig({ ...SECRETS, CHAIN_NETWORK: 'mainnet' }))).to.include(8453);
  });

  it('names each chain id from the resolved registry', () => {
    const mainnet = loadPaymentsConfig({
      ...SECRETS,
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
      ...SECRETS,
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
      for (const name of [
        'INTERNAL_TOKEN_SECRET',
        'ENVIRONMENT',
        'CHAIN_NETWORK',
        'CHECKOUT_URL',
        'FEE_QUOTE_SECRET',
      ])
        expect(text).to.include(name);
    }
    const feeProblems = (env: Record<string, string>) => {
      try {
        loadPaymentsConfig({ ...SECRETS, ...env });
        return '';
      } catch (err) {
        return (err as ConfigError).problems.join('\n');
      }
    };
    // The quote signing key is required and long enough to resist guessing.
    expect(feeProblems({ FEE_QUOTE_SECRET: '' })).to.include('FEE_QUOTE_SECRET');
    expect(feeProblems({ FEE_QUOTE_SECRET: 'short' })).to.include('FEE_QUOTE_SECRET');
    for (const [name, value] of [
      ['FEE_QUOTE_GAS_BUFFER_PERCENT', '12.345'],
      ['FEE_QUOTE_GAS_BUFFER_PERCENT', '-5'],
      ['FEE_QUOTE_MIN_GAS_FEE', '0.0000001'],
      ['FEE_QUOTE_MIN_GAS_FEE', '1e3'],
      ['FEE_QUOTE_ATTESTATION_FEE_BPS', '1.0001'],
      ['FEE_QUOTE_ATTESTATION_FEE_BPS', '10001'],
      ['FEE_QUOTE_VALID_SECONDS', '5'],
      ['CHAIN_WATCHER_URL', 'not a url'],
    ] as const) {
      expect(feeProblems({ [name]: value }), `${name}=${value}`).to.include(name);
    }
    expect(() => loadPaymentsConfig({ ...SECRETS, CHAIN_REGISTRY: 'nope' })).to.throw(
      ConfigError,
      /CHAIN_REGISTRY/,
    );
    expect(() => loadPaymentsConfig({ ...SECRETS, CHAIN_RPC_URLS_AVAX: 'http://127.0.0.1:9650' })).to.throw(
      ConfigError,
      /CHAIN_RPC_URLS_AVAX/,
    );
  });
});
