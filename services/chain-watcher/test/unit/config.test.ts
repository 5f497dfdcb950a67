import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { devnetRegistry, mainnetRegistry } from '@stablepay/contracts';
import { ConfigError } from '@stablepay/platform';
import { loadChainWatcherConfig, parseWalletKek } from '../../src/index.js';

const KEK_HEX = randomBytes(32).toString('hex');
const base = { INTERNAL_TOKEN_SECRET: 'x'.repeat(32), WALLET_KEK: KEK_HEX };

const problems = (env: Record<string, string>): string[] => {
  try {
    loadChainWatcherConfig(env);
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a configuration error');
};

describe('chain-watcher configuration', () => {
  it('has the documented defaults and the devnet preset', () => {
    const c = loadChainWatcherConfig(base);
    expect(c).to.include({
      PORT: 8102,
      DATABASE_SCHEMA: 'chain_watcher',
      CHAIN_NETWORK: 'devnet',
      VERIFY_POLL_MS: 1_000,
      TX_NOT_FOUND_AFTER_MS: 1_800_000,
      RPC_TIMEOUT_MS: 8_000,
      SCAN_INTERVAL_MS: 5_000,
      SCAN_MAX_BLOCKS: 2_000,
      RECOVERY_AFTER_MS: 600_000,
      VERIFY_BATCH_SIZE: 50,
    });
    expect(c.registry).to.deep.equal(devnetRegistry);
    expect(Buffer.compare(c.WALLET_KEK, Buffer.from(KEK_HEX, 'hex'))).to.equal(0);
  });

  it('accepts the KEK as hex (with or without 0x) or base64 of exactly 32 bytes', () => {
    const key = randomBytes(32);
    for (const text of [
      key.toString('hex'),
      `0x${key.toString('hex')}`,
      key.toString('base64'),
      key.toString('base64url'),
    ]) {
      expect(parseWalletKek(text)?.equals(key), text).to.equal(true);
    }
    for (const bad of [
      '',
      'secret',
      randomBytes(16).toString('hex'),
      randomBytes(31).toString('base64'),
      'zz'.repeat(32),
    ]) {
      expect(parseWalletKek(bad), bad).to.equal(undefined);
    }
  });

  it('refuses to start without a valid WALLET_KEK, naming the variable', () => {
    expect(problems({ INTERNAL_TOKEN_SECRET: 'x'.repeat(32) }).join()).to.match(/^WALLET_KEK:/);
    expect(problems({ ...base, WALLET_KEK: 'too-short' }).join()).to.match(/WALLET_KEK: must be 32 bytes/);
  });

  it('uses the named preset, and CHAIN_REGISTRY replaces it entirely', () => {
    expect(loadChainWatcherConfig({ ...base, CHAIN_NETWORK: 'mainnet' }).registry).to.deep.equal(
      mainnetRegistry,
    );
    const own = {
      network: 'devnet',
      chains: [
        {
          name: 'BASE',
          chainId: 31337,
          cctpDomain: 6,
          rpcUrls: ['http://127.0.0.1:9999'],
          confirmations: 2,
          tokens: {},
        },
      ],
    };
    const c = loadChainWatcherConfig({
      ...base,
      CHAIN_NETWORK: 'mainnet',
      CHAIN_REGISTRY: JSON.stringify(own),
    });
    expect(c.registry).to.deep.equal(own);
  });

  it('lays CHAIN_RPC_URLS_<NAME> over the registry, in order', () => {
    const c = loadChainWatcherConfig({
      ...base,
      CHAIN_NETWORK: 'mainnet',
      CHAIN_RPC_URLS_BASE: 'https://base-a.example/key, https://base-b.example',
    });
    expect(c.registry.chains.find((x) => x.name === 'BASE')!.rpcUrls).to.deep.equal([
      'https://base-a.example/key',
      'https://base-b.example',
    ]);
    expect(c.registry.chains.find((x) => x.name === 'ETH')!.rpcUrls).to.deep.equal(
      mainnetRegistry.chains.find((x) => x.name === 'ETH')!.rpcUrls,
    );
  });

  it('reports a broken registry or an override for a chain it lacks as configuration errors', () => {
    expect(problems({ ...base, CHAIN_REGISTRY: '{not json' }).join()).to.match(
      /CHAIN_REGISTRY: .*not valid JSON/,
    );
    expect(
      problems({ ...base, CHAIN_REGISTRY: '{"network":"devnet","chains":[{"name":"BASE"}]}' }).join(),
    ).to.match(/CHAIN_REGISTRY: Invalid chain registry/);
    expect(problems({ ...base, CHAIN_RPC_URLS_ARB: 'https://arb.example' })).to.deep.equal([
      'CHAIN_RPC_URLS_ARB: chain ARB is not in the devnet chain registry',
    ]);
    expect(problems({ ...base, CHAIN_RPC_URLS_BASE: 'ftp://nope' }).join()).to.match(
      /^CHAIN_RPC_URLS_BASE\b/,
    );
    expect(problems({ ...base, VERIFY_POLL_MS: '1' }).join()).to.match(/^VERIFY_POLL_MS:/);
  });
});
