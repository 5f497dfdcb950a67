import { devnetRegistry, mainnetRegistry } from '@stablepay/contracts';
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
      RATE_LIMIT_FAILED_KEYS_PER_MINUTE: 20,
      SIGNIN_LOCKOUT_FAILURES: 10,
      SIGNIN_LOCKOUT_WINDOW_SECONDS: 900,
      REDIS_KEY_PREFIX: 'stablepay:gateway:',
      TRUSTED_PROXIES: false,
    });
    expect(config.REDIS_URL).to.equal(undefined);
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

  it('parses lists, numbers and the trusted proxies', () => {
    const config = loadGatewayConfig({
      ...required,
      CORS_DASHBOARD_ORIGINS: 'https://a.example, https://b.example',
      TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1,fd00::/8 ,loopback',
      ENVIRONMENT: 'test',
      SCRYPT_COST: '10',
      REDIS_URL: 'redis://127.0.0.1:6379/0',
    });
    expect(config.CORS_DASHBOARD_ORIGINS).to.deep.equal(['https://a.example', 'https://b.example']);
    expect(config.TRUSTED_PROXIES).to.deep.equal(['10.0.0.0/8', '127.0.0.1', 'fd00::/8', 'loopback']);
    expect(config.ENVIRONMENT).to.equal('test');
    expect(config.SCRYPT_COST).to.equal(10);
    expect(config.REDIS_URL).to.equal('redis://127.0.0.1:6379/0');
  });

  it('refuses proxy settings that would let clients name their own address', () => {
    const problems = (env: Record<string, string>): string => {
      try {
        loadGatewayConfig({ ...required, ...env });
      } catch (err) {
        return (err as ConfigError).problems.join('\n');
      }
      return expect.fail('should have thrown');
    };
    // Hop counts and `true` trust whatever a client sends when the port is published directly.
    expect(problems({ TRUST_PROXY: '1' })).to.match(/TRUST_PROXY: is replaced by TRUSTED_PROXIES/);
    expect(problems({ TRUSTED_PROXIES: 'true' })).to.include('"true" is not an IP address');
    expect(problems({ TRUSTED_PROXIES: '10.0.0.0/33' })).to.include('"10.0.0.0/33"');
    expect(problems({ TRUSTED_PROXIES: '1' })).to.include('"1"');
    expect(problems({ REDIS_URL: 'http://127.0.0.1:6379' })).to.include('REDIS_URL');
  });

  it('rejects prefixes that would not form valid ids', () => {
    expect(() => loadGatewayConfig({ ...required, MERCHANT_ID_PREFIX: 'Sp_x' })).to.throw(ConfigError);
    expect(() => loadGatewayConfig({ ...required, ENVIRONMENT: 'prod' })).to.throw(ConfigError);
  });

  it('lets merchants register on the chains of the registry, the devnet preset unless told', () => {
    expect(loadGatewayConfig(required).supportedBlockchains).to.deep.equal(['ETH', 'BASE', 'MATIC']);
    expect(loadGatewayConfig({ ...required, CHAIN_NETWORK: 'mainnet' }).supportedBlockchains).to.have.members(
      mainnetRegistry.chains.map((chain) => chain.name),
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

  it('publishes each chain with the name people read, its explorer and block time where known', () => {
    const devnet = loadGatewayConfig(required).publicChains.chains;
    expect(devnet.map((c) => c.displayName)).to.deep.equal(['Ethereum', 'Base', 'Polygon PoS']);
    expect(devnet.every((c) => c.explorerUrl === undefined && c.blockTimeMs === undefined)).to.equal(true);
    const base = loadGatewayConfig({ ...required, CHAIN_NETWORK: 'mainnet' }).publicChains.chains.find(
      (c) => c.name === 'BASE',
    );
    expect(base).to.deep.include({
      displayName: 'Base',
      explorerUrl: 'https://basescan.org',
      blockTimeMs: 2_000,
    });
  });
});
