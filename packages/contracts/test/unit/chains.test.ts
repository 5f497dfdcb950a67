import { expect } from 'chai';
import {
  BLOCKCHAIN_NAMES,
  ChainRegistryError,
  chainByDomain,
  chainById,
  chainByName,
  devnetRegistry,
  mainnetRegistry,
  parseChainRegistry,
  registryPreset,
  testnetRegistry,
  tokenAddress,
  tokenByAddress,
  withChainOverrides,
  type ChainRegistry,
} from '../../src/index.js';

describe('chain registry', () => {
  it('has mainnet presets with the real chain ids, CCTP domains and token addresses', () => {
    const table = mainnetRegistry.chains.map((c) => [c.name, c.chainId, c.cctpDomain, c.confirmations]);
    expect(table).to.deep.equal([
      ['ETH', 1, 0, 2],
      ['BASE', 8453, 6, 1],
      ['MATIC', 137, 7, 3],
      ['ARB', 42161, 3, 1],
      ['AVAX', 43114, 1, 1],
      ['OP', 10, 2, 1],
      ['UNI', 130, 10, 1],
      ['LINEA', 59144, 11, 1],
      ['SONIC', 146, 13, 1],
      ['WORLD', 480, 14, 1],
      ['SEI', 1329, 16, 1],
      ['CODEX', 81224, 12, 1],
      ['MONAD', 143, 15, 1],
      ['XDC', 50, 18, 3],
      ['HYPEREVM', 999, 19, 1],
      ['INK', 57073, 21, 1],
      ['PLUME', 98866, 22, 1],
    ]);
    expect(tokenAddress(mainnetRegistry, 'ETH', 'USDC')).to.equal(
      '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    );
    expect(tokenAddress(mainnetRegistry, 'BASE', 'EURC')).to.equal(
      '0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42',
    );
    expect(mainnetRegistry.chains.filter((c) => c.tokens.EURC).map((c) => c.name)).to.deep.equal([
      'ETH',
      'BASE',
      'AVAX',
    ]);
    for (const chain of mainnetRegistry.chains) {
      expect(chain.tokens.USDC, chain.name).to.be.a('string');
      expect(chain.cctp).to.deep.equal({
        tokenMessenger: '0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d',
        messageTransmitter: '0x81D40F21F12A8F0E3252Bccb954D722d4c464B64',
      });
    }
  });

  it("has testnet presets on each mainnet's testnet with the testnet CCTP contracts", () => {
    expect(testnetRegistry.chains.map((c) => [c.name, c.chainId, c.cctpDomain])).to.deep.equal([
      ['ETH', 11155111, 0],
      ['BASE', 84532, 6],
      ['MATIC', 80002, 7],
      ['ARB', 421614, 3],
      ['AVAX', 43113, 1],
      ['OP', 11155420, 2],
      ['UNI', 1301, 10],
      ['LINEA', 59141, 11],
      ['SONIC', 14601, 13],
      ['WORLD', 4801, 14],
      ['SEI', 1328, 16],
      ['CODEX', 812242, 12],
      ['MONAD', 10143, 15],
      ['XDC', 51, 18],
      ['HYPEREVM', 998, 19],
      ['INK', 763373, 21],
      ['PLUME', 98867, 22],
      ['ARC', 5042002, 26],
    ]);
    for (const chain of testnetRegistry.chains) {
      expect(chain.cctp?.tokenMessenger).to.equal('0x8FE6B999Dc680CcFDD5Bf7EB0974218be2542DAA');
      expect(chain.cctp?.messageTransmitter).to.equal('0xE737e5cEBEEBa77EFE34D4aa090756590b1CE275');
      expect(chain.tokens.USDC, chain.name).to.be.a('string');
    }
  });

  it('has a devnet preset with chain ids no public network uses and the real CCTP domains', () => {
    expect(devnetRegistry.chains.map((c) => [c.name, c.chainId, c.cctpDomain, c.rpcUrls[0]])).to.deep.equal([
      ['ETH', 31001, 0, 'http://127.0.0.1:8545'],
      ['BASE', 31002, 6, 'http://127.0.0.1:8546'],
      ['MATIC', 31003, 7, 'http://127.0.0.1:8547'],
    ]);
    for (const chain of devnetRegistry.chains) {
      expect(chainById(mainnetRegistry, chain.chainId)).to.equal(undefined);
      expect(chainById(testnetRegistry, chain.chainId)).to.equal(undefined);
      expect(chainByName(mainnetRegistry, chain.name)?.cctpDomain).to.equal(chain.cctpDomain);
    }
  });

  it('parses its own presets, from objects and from JSON text', () => {
    for (const registry of [mainnetRegistry, testnetRegistry, devnetRegistry]) {
      expect(parseChainRegistry(JSON.parse(JSON.stringify(registry)))).to.deep.equal(registry);
      expect(parseChainRegistry(JSON.stringify(registry))).to.deep.equal(registry);
    }
  });

  it('looks chains up by name, chain id and CCTP domain, and tokens by address', () => {
    expect(chainByName(mainnetRegistry, 'BASE')?.chainId).to.equal(8453);
    expect(chainByName(devnetRegistry, 'SEI')).to.equal(undefined);
    expect(chainById(testnetRegistry, 84532)?.name).to.equal('BASE');
    expect(chainById(testnetRegistry, 8453)).to.equal(undefined);
    expect(chainByDomain(mainnetRegistry, 7)?.name).to.equal('MATIC');
    expect(tokenAddress(mainnetRegistry, 'MATIC', 'EURC')).to.equal(undefined);
    expect(tokenAddress(devnetRegistry, 'SONIC', 'USDC')).to.equal(undefined);
    expect(tokenByAddress(mainnetRegistry, 1, '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48')).to.equal('USDC');
    expect(tokenByAddress(mainnetRegistry, 8453, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48')).to.equal(
      undefined,
    );
  });

  it('refuses configurations with unknown chains, bad addresses, duplicates or unknown fields', () => {
    const base = JSON.parse(JSON.stringify(devnetRegistry)) as ChainRegistry;
    const variants: Array<[string, (r: any) => void, RegExp]> = [
      ['unknown chain name', (r) => (r.chains[0].name = 'DOGE'), /name/],
      ['bad token address', (r) => (r.chains[0].tokens.USDC = '0x1234'), /Invalid EVM address/],
      ['no RPC URL', (r) => (r.chains[0].rpcUrls = []), /rpcUrls/],
      ['not a URL', (r) => (r.chains[0].rpcUrls = ['localhost:8545']), /rpcUrls/],
      ['zero confirmations', (r) => (r.chains[0].confirmations = 0), /confirmations/],
      ['duplicate chain id', (r) => (r.chains[1].chainId = r.chains[0].chainId), /Duplicate chainId 31001/],
      ['duplicate domain', (r) => (r.chains[1].cctpDomain = 0), /Duplicate cctpDomain 0/],
      ['unknown network', (r) => (r.network = 'staging'), /network/],
      ['unknown token', (r) => (r.chains[0].tokens.USDT = '0x' + '1'.repeat(40)), /USDT/],
    ];
    for (const [what, mutate, message] of variants) {
      const copy = structuredClone(base);
      mutate(copy);
      expect(() => parseChainRegistry(copy), what).to.throw(ChainRegistryError, message);
    }
    expect(() => parseChainRegistry('{not json')).to.throw(ChainRegistryError, /not valid JSON/);
  });

  it('lays configuration over a preset and can limit it to the chains served', () => {
    const registry = withChainOverrides(
      mainnetRegistry,
      { BASE: { rpcUrls: ['https://base.example.com', 'wss://base-ws.example.com'], confirmations: 3 } },
      ['BASE', 'ETH'],
    );
    expect(registry.chains.map((c) => c.name)).to.deep.equal(['BASE', 'ETH']);
    expect(chainByName(registry, 'BASE')?.rpcUrls).to.deep.equal([
      'https://base.example.com',
      'wss://base-ws.example.com',
    ]);
    expect(chainByName(registry, 'BASE')?.confirmations).to.equal(3);
    expect(chainByName(registry, 'BASE')?.tokens.EURC).to.equal('0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42');
    expect(() => withChainOverrides(devnetRegistry, { ARB: { confirmations: 2 } })).to.throw(/ARB/);
    expect(() => withChainOverrides(devnetRegistry, {}, ['OP'])).to.throw(/OP is not in the devnet registry/);
  });

  it('keeps the presets read-only and hands out copies to change', () => {
    for (const registry of [mainnetRegistry, testnetRegistry, devnetRegistry]) {
      expect(Object.isFrozen(registry.chains)).to.equal(true);
      expect(
        registry.chains.every(
          (c) => Object.isFrozen(c) && Object.isFrozen(c.tokens) && Object.isFrozen(c.rpcUrls),
        ),
      ).to.equal(true);
    }
    const copy = registryPreset('mainnet');
    copy.chains[0]!.confirmations = 99;
    expect(mainnetRegistry.chains[0]!.confirmations).to.equal(2);
  });

  it('only names chains the API knows', () => {
    for (const registry of [mainnetRegistry, testnetRegistry, devnetRegistry]) {
      for (const chain of registry.chains) expect(BLOCKCHAIN_NAMES).to.include(chain.name);
    }
  });
});
