import { expect } from 'chai';
import {
  blockchainDisplayName,
  chainDisplayName,
  chainExplorerUrl,
  devnetRegistry,
  explorerAddressUrl,
  explorerTxUrl,
  mainnetRegistry,
  publishedDisplayName,
  testnetRegistry,
  type ChainConfig,
} from '../../src/index.js';
import { CCTP_V2_MAINNET } from '../../src/chains/presets-mainnet.js';
import { CCTP_V2_TESTNET } from '../../src/chains/presets-testnet.js';

// EIP-55 checksums need keccak-256, which neither Node nor this package has: the devnet package,
// which has ethers, checks every preset address (packages/devnet/test/registry-presets.test.ts).
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const publicNetworks = [
  { registry: mainnetRegistry, cctp: CCTP_V2_MAINNET },
  { registry: testnetRegistry, cctp: CCTP_V2_TESTNET },
];
const allPresetChains: ChainConfig[] = [...mainnetRegistry.chains, ...testnetRegistry.chains];

const duplicates = (values: unknown[]): unknown[] => values.filter((v, i) => values.indexOf(v) !== i);

describe('chain presets', () => {
  it('has unique names, chain ids and CCTP domains within each network', () => {
    for (const { registry } of publicNetworks) {
      for (const field of ['name', 'chainId', 'cctpDomain'] as const)
        expect(duplicates(registry.chains.map((c) => c[field])), `${registry.network} ${field}`).to.be.empty;
    }
  });

  it('never gives a testnet a mainnet chain id, nor the devnet either', () => {
    const ids = [...mainnetRegistry.chains, ...testnetRegistry.chains, ...devnetRegistry.chains].map(
      (c) => c.chainId,
    );
    expect(duplicates(ids)).to.be.empty;
  });

  it('pairs every mainnet chain with its testnet under the same name and CCTP domain', () => {
    for (const chain of mainnetRegistry.chains) {
      const twin = testnetRegistry.chains.find((c) => c.name === chain.name);
      expect(twin?.cctpDomain, chain.name).to.equal(chain.cctpDomain);
      expect(twin?.confirmations, chain.name).to.equal(chain.confirmations);
      expect(Object.keys(twin?.tokens ?? {}), chain.name).to.deep.equal(Object.keys(chain.tokens));
    }
  });

  it("uses Circle's shared CCTP v2 addresses of its network on every chain", () => {
    for (const { registry, cctp } of publicNetworks) {
      for (const chain of registry.chains) expect(chain.cctp, chain.name).to.deep.equal(cctp);
    }
    expect(CCTP_V2_MAINNET.tokenMessenger).to.not.equal(CCTP_V2_TESTNET.tokenMessenger);
  });

  it('has USDC on every chain, EURC only beside USDC, and addresses written out in full', () => {
    for (const chain of allPresetChains) {
      expect(chain.tokens.USDC, chain.name).to.match(ADDRESS);
      if (chain.tokens.EURC) expect(chain.tokens.EURC).to.match(ADDRESS);
      const addresses = [chain.tokens.USDC, chain.tokens.EURC].filter(Boolean).map((a) => a!.toLowerCase());
      expect(duplicates(addresses), chain.name).to.be.empty;
      // A checksummed address has both cases unless it is all digits; an all-lowercase one was copied unchecked.
      for (const address of Object.values(chain.tokens))
        expect(address === address.toLowerCase() && /[a-f]/.test(address), address).to.equal(false);
    }
    expect(mainnetRegistry.chains.filter((c) => c.tokens.EURC).map((c) => c.name)).to.deep.equal([
      'ETH',
      'BASE',
      'AVAX',
    ]);
  });

  it('gives every chain a unique display name and an https explorer', () => {
    const names = allPresetChains.map((c) => c.displayName);
    expect(names.every((n) => typeof n === 'string' && n.length > 0)).to.equal(true);
    expect(duplicates(names)).to.be.empty;
    for (const chain of allPresetChains) {
      expect(chain.explorerUrl, chain.name).to.match(/^https:\/\/[a-z0-9.-]+(\/[a-z]+)?$/);
      if (chain.blockTimeMs !== undefined) expect(chain.blockTimeMs, chain.name).to.be.within(100, 15_000);
      expect(chain.confirmations, chain.name).to.be.within(1, 3);
      for (const url of chain.rpcUrls) expect(url, chain.name).to.match(/^https:\/\//);
    }
    expect(testnetRegistry.chains.every((c) => c.displayName !== c.name)).to.equal(true);
  });

  it('names chains for people by chain id, falling back to the BlockchainName', () => {
    expect(chainDisplayName(137)).to.equal('Polygon PoS');
    expect(chainDisplayName(42161)).to.equal('Arbitrum One');
    expect(chainDisplayName(84532)).to.equal('Base Sepolia');
    const devnet = devnetRegistry.chains;
    expect(chainDisplayName(31002, devnet)).to.equal('BASE');
    expect(chainDisplayName(31002)).to.equal(undefined);
    expect(chainDisplayName(31002, [{ chainId: 31002, name: 'BASE', displayName: 'Base (local)' }])).to.equal(
      'Base (local)',
    );
  });

  it('names a chain known only by its BlockchainName as people call it, on every network', () => {
    expect(blockchainDisplayName('BASE')).to.equal('Base');
    expect(blockchainDisplayName('MATIC')).to.equal('Polygon PoS');
    expect(blockchainDisplayName('AVAX')).to.equal('Avalanche C-Chain');
    for (const chain of [...mainnetRegistry.chains, ...testnetRegistry.chains, ...devnetRegistry.chains])
      expect(blockchainDisplayName(chain.name), chain.name).not.to.equal(chain.name);
    expect(blockchainDisplayName('SOMECHAIN')).to.equal('SOMECHAIN');
  });

  it('publishes for GET /chains the name people read and the explorer, a devnet chain by its BlockchainName', () => {
    const [eth, base, matic] = devnetRegistry.chains;
    expect([eth, base, matic].map((c) => publishedDisplayName(c!))).to.deep.equal([
      'Ethereum',
      'Base',
      'Polygon PoS',
    ]);
    expect(publishedDisplayName({ chainId: 84532, name: 'BASE' })).to.equal('Base Sepolia');
    expect(publishedDisplayName({ chainId: 31002, name: 'BASE', displayName: 'Base (local)' })).to.equal(
      'Base (local)',
    );
    expect(publishedDisplayName({ chainId: 99999, name: 'NEWCHAIN' })).to.equal('NEWCHAIN');
    expect(chainExplorerUrl({ chainId: 8453, name: 'BASE' })).to.equal('https://basescan.org');
    expect(chainExplorerUrl(base!)).to.equal(undefined);
  });

  it('links transactions and addresses to the preset explorer, or to the one a chain is served with', () => {
    const hash = '0x' + 'ab'.repeat(32);
    expect(explorerTxUrl(8453, hash)).to.equal(`https://basescan.org/tx/${hash}`);
    expect(explorerAddressUrl(11155111, '0x1')).to.equal('https://sepolia.etherscan.io/address/0x1');
    expect(explorerTxUrl(130, hash)).to.equal(`https://uniscan.xyz/tx/${hash}`);
    expect(explorerTxUrl(31001, hash, devnetRegistry.chains)).to.equal(undefined);
    expect(explorerTxUrl(undefined, hash)).to.equal(undefined);
    const custom = [{ chainId: 31001, name: 'ETH', explorerUrl: 'http://127.0.0.1:5100' }];
    expect(explorerTxUrl(31001, hash, custom)).to.equal(`http://127.0.0.1:5100/tx/${hash}`);
  });
});
