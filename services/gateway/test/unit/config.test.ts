import { devnetRegistry } from '@stablepay/contracts';
import { ConfigError } from '@stablepay/platform';
import { expect } from 'chai';
import { loadGatewayConfig } from '../../src/config.js';

const required = {
  INTERNAL_TOKEN_SECRET: 'i'.repeat(32),
  JWT_SECRET: 'j'.repeat(32),
  API_KEY_PEPPER: 'p'.repeat(32),
};

describe('gateway configuration', () => {
  it('has production defaults', () => {
    const config = loadGatewayConfig(required);
    expect(config).to.deep.include({
      PORT: 8080,
      DATABASE_SCHEMA: 'gateway',
      MERCHANT_ID_PREFIX: 'sp',
      API_KEY_PREFIX: 'sk',
      ENVIRONMENT: 'live',
      ACCESS_TOKEN_TTL_SECONDS: 900,
      REFRESH_TOKEN_TTL_SECONDS: 30 * 86_400,
      SCRYPT_COST: 15,
      PAYMENTS_URL: 'http://127.0.0.1:8101',
      CHAIN_WATCHER_URL: 'http://127.0.0.1:8102',
      REFUNDS_URL: 'http://127.0.0.1:8103',
      INVOICING_URL: 'http://127.0.0.1:8104',
      NOTIFIER_URL: 'http://127.0.0.1:8105',
      UPSTREAM_TIMEOUT_MS: 15_000,
      RATE_LIMIT_PUBLIC_PER_MINUTE: 120,
      RATE_LIMIT_KEY_PER_MINUTE: 600,
      RATE_LIMIT_AUTH_PER_MINUTE: 20,
      TRUST_PROXY: 'loopback',
    });
    expect(config.CORS_DASHBOARD_ORIGINS).to.deep.equal([]);
  });

  it('points e-mailed links at DASHBOARD_URL, else the first dashboard origin, else the development server', () => {
    expect(loadGatewayConfig(required).dashboardUrl).to.equal('http://localhost:5173');
    expect(loadGatewayConfig(required).EMAIL_CONFIRMATION_RESEND_SECONDS).to.equal(60);
    expect(
      loadGatewayConfig({
        ...required,
        CORS_DASHBOARD_ORIGINS: 'https://dash.shop.example,https://other.example',
      }).dashboardUrl,
    ).to.equal('https://dash.shop.example');
    expect(
      loadGatewayConfig({
        ...required,
        CORS_DASHBOARD_ORIGINS: 'https://dash.shop.example',
        DASHBOARD_URL: 'https://pay.shop.example/dashboard/',
      }).dashboardUrl,
    ).to.equal('https://pay.shop.example/dashboard');
    expect(() => loadGatewayConfig({ ...required, DASHBOARD_URL: 'javascript:alert(1)' })).to.throw(
      ConfigError,
      /DASHBOARD_URL/,
    );
  });

  it('names every missing or weak secret', () => {
    try {
      loadGatewayConfig({ INTERNAL_TOKEN_SECRET: 'i'.repeat(32), JWT_SECRET: 'short' });
      expect.fail('should have thrown');
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      expect(problems).to.include('JWT_SECRET');
      expect(problems).to.include('API_KEY_PEPPER');
    }
  });

  it('parses lists, numbers and the trust-proxy setting', () => {
    const config = loadGatewayConfig({
      ...required,
      CORS_DASHBOARD_ORIGINS: 'https://a.example, https://b.example',
      TRUST_PROXY: '2',
      ENVIRONMENT: 'test',
      SCRYPT_COST: '10',
    });
    expect(config.CORS_DASHBOARD_ORIGINS).to.deep.equal(['https://a.example', 'https://b.example']);
    expect(config.TRUST_PROXY).to.equal(2);
    expect(config.ENVIRONMENT).to.equal('test');
    expect(config.SCRYPT_COST).to.equal(10);
    expect(loadGatewayConfig({ ...required, TRUST_PROXY: 'false' }).TRUST_PROXY).to.equal(false);
  });

  it('rejects prefixes that would not form valid ids', () => {
    expect(() => loadGatewayConfig({ ...required, MERCHANT_ID_PREFIX: 'Sp_x' })).to.throw(ConfigError);
    expect(() => loadGatewayConfig({ ...required, ENVIRONMENT: 'prod' })).to.throw(ConfigError);
  });

  it('lets merchants register on the chains of the registry, the devnet preset unless told', () => {
    expect(loadGatewayConfig(required).supportedBlockchains).to.deep.equal(['ETH', 'BASE', 'MATIC']);
    expect(loadGatewayConfig({ ...required, CHAIN_NETWORK: 'mainnet' }).supportedBlockchains).to.have.members(
      ['ETH', 'BASE', 'MATIC', 'ARB', 'AVAX', 'OP'],
    );
    const onlyBase = JSON.stringify({ network: 'devnet', chains: [devnetRegistry.chains[1]] });
    expect(loadGatewayConfig({ ...required, CHAIN_REGISTRY: onlyBase }).supportedBlockchains).to.deep.equal([
      'BASE',
    ]);
    expect(() => loadGatewayConfig({ ...required, CHAIN_REGISTRY: '{' })).to.throw(
      ConfigError,
      /CHAIN_REGISTRY/,
    );
    expect(() => loadGatewayConfig({ ...required, CHAIN_NETWORK: 'moonnet' })).to.throw(ConfigError);
  });
});
