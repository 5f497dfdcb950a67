import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { Wallet, verifyTypedData } from 'ethers';
import { devnetRegistry } from '@stablepay/contracts';
import { TRANSFER_WITH_AUTHORIZATION_TYPES, authorizationDomain } from '../../src/chain/fiat-token.js';
import { parseRelayerKeys, RelayerWallets } from '../../src/custody/relayer-keys.js';
import { relayAuthorizationNonce } from '../../src/cctp/relayer-transfer.js';
import { loadChainWatcherConfig } from '../../src/index.js';

const base = { INTERNAL_TOKEN_SECRET: 'x'.repeat(32), WALLET_KEK: randomBytes(32).toString('hex') };

describe('relayer flow: configuration and the relay wallet’s authorization', () => {
  it('waits two hours for an attestation by default, and reads CCTP_CRASH_POINT only in tests', () => {
    expect(loadChainWatcherConfig(base).CCTP_ATTESTATION_WAIT_MS).to.equal(7_200_000);
    const crash = { ...base, CCTP_CRASH_POINT: 'mint_signed' };
    expect(loadChainWatcherConfig({ ...crash, NODE_ENV: 'production' }).CCTP_CRASH_POINT).to.equal(undefined);
    expect(loadChainWatcherConfig({ ...crash, NODE_ENV: 'test' }).CCTP_CRASH_POINT).to.equal('mint_signed');
    expect(() => loadChainWatcherConfig({ ...base, CCTP_CRASH_POINT: 'somewhere' })).to.throw(
      /CCTP_CRASH_POINT/,
    );
  });

  it('gives each payment one authorization nonce of its own, the same every time', () => {
    const a = randomUUID();
    expect(relayAuthorizationNonce(a)).to.equal(relayAuthorizationNonce(a));
    expect(relayAuthorizationNonce(a)).to.match(/^0x[0-9a-f]{64}$/);
    expect(relayAuthorizationNonce(a)).to.not.equal(relayAuthorizationNonce(randomUUID()));
  });

  it('signs the EIP-3009 authorization with the relay wallet’s own key', () => {
    const key = Wallet.createRandom();
    const chain = devnetRegistry.chains.find((c) => c.name === 'BASE')!;
    const keys = parseRelayerKeys(JSON.stringify({ BASE: key.privateKey }));
    if (typeof keys === 'string') throw new Error(keys);
    const relayers = new RelayerWallets([chain], keys, undefined);
    const domain = authorizationDomain(
      'USD Coin',
      chain.chainId,
      '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    );
    const value = {
      from: key.address,
      to: Wallet.createRandom().address,
      value: 10_000_000n,
      validAfter: 0n,
      validBefore: 2_000_000_000n,
      nonce: relayAuthorizationNonce(randomUUID()),
    };
    const signature = relayers.signTypedData(chain.chainId, domain, TRANSFER_WITH_AUTHORIZATION_TYPES, value);
    expect(verifyTypedData(domain, TRANSFER_WITH_AUTHORIZATION_TYPES, value, signature)).to.equal(
      key.address,
    );
    expect(() => relayers.signTypedData(1, domain, TRANSFER_WITH_AUTHORIZATION_TYPES, value)).to.throw(
      /no relayer key/,
    );
  });
});
