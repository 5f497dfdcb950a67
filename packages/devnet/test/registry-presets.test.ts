import { expect } from 'chai';
import { mainnetRegistry, testnetRegistry } from '@stablepay/contracts';
import { getAddress } from 'ethers';

// Here rather than in packages/contracts, whose tests do not depend on ethers.
describe('chain registry presets (address checksums)', () => {
  it('writes every mainnet and testnet address with a valid EIP-55 checksum', () => {
    for (const registry of [mainnetRegistry, testnetRegistry]) {
      for (const chain of registry.chains) {
        const addresses = [...Object.values(chain.tokens), ...Object.values(chain.cctp ?? {})];
        for (const address of addresses)
          expect(getAddress(address), `${registry.network} ${chain.name}`).to.equal(address);
      }
    }
  });
});
