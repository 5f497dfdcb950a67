import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { Signature, TypedDataEncoder, recoverAddress, verifyTypedData } from 'ethers';
import { deriveMerchantKey } from '../../src/custody/key-derivation.js';
import { WalletKeyError, openSeed, sealSeed } from '../../src/custody/seed-crypto.js';
import { SeedWalletSigner } from '../../src/custody/wallet-signer.js';

describe('wallet custody', () => {
  const kek = randomBytes(32);
  const seed = randomBytes(32);

  describe('master seed at rest', () => {
    it('round-trips through AES-256-GCM with a fresh nonce every time', () => {
      const a = sealSeed(seed, kek);
      const b = sealSeed(seed, kek);
      expect(openSeed(a, kek).equals(seed)).to.equal(true);
      expect(a.iv.equals(b.iv)).to.equal(false);
      expect(a.ciphertext.equals(b.ciphertext)).to.equal(false);
      expect(a.ciphertext.equals(seed)).to.equal(false);
    });

    it('fails loudly on a wrong key or an altered row, never returning a different seed', () => {
      const sealed = sealSeed(seed, kek);
      expect(() => openSeed(sealed, randomBytes(32))).to.throw(WalletKeyError, /WALLET_KEK cannot decrypt/);
      const flipped = Buffer.from(sealed.ciphertext);
      flipped[0] = flipped[0]! ^ 1;
      expect(() => openSeed({ ...sealed, ciphertext: flipped }, kek)).to.throw(WalletKeyError);
      expect(() => openSeed({ ...sealed, authTag: randomBytes(16) }, kek)).to.throw(WalletKeyError);
    });
  });

  describe('per-merchant keys', () => {
    it('derives the same key for the same merchant and distinct keys otherwise', () => {
      const m = randomUUID();
      expect(deriveMerchantKey(seed, m).equals(deriveMerchantKey(seed, m))).to.equal(true);
      expect(deriveMerchantKey(seed, m).equals(deriveMerchantKey(seed, m.toUpperCase()))).to.equal(true);
      expect(deriveMerchantKey(seed, m).equals(deriveMerchantKey(seed, randomUUID()))).to.equal(false);
      expect(deriveMerchantKey(seed, m).equals(deriveMerchantKey(randomBytes(32), m))).to.equal(false);
    });

    it('signs EIP-712 data and raw digests that recover to the merchant address', async () => {
      const signer = new SeedWalletSigner(seed);
      const merchantId = randomUUID();
      const address = await signer.addressOf(merchantId);
      expect(address).to.match(/^0x[0-9a-fA-F]{40}$/);
      const domain = {
        name: 'USD Coin',
        version: '2',
        chainId: 31002,
        verifyingContract: `0x${'11'.repeat(20)}`,
      };
      const types = {
        TransferWithAuthorization: [
          { name: 'from', type: 'address' },
          { name: 'to', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'validAfter', type: 'uint256' },
          { name: 'validBefore', type: 'uint256' },
          { name: 'nonce', type: 'bytes32' },
        ],
      };
      const value = {
        from: address,
        to: address,
        value: 5n,
        validAfter: 0n,
        validBefore: 9n,
        nonce: `0x${'ab'.repeat(32)}`,
      };
      const typed = await signer.signTypedData(merchantId, domain, types, value);
      expect(verifyTypedData(domain, types, value, typed)).to.equal(address);
      const digest = TypedDataEncoder.hash(domain, types, value);
      const raw = await signer.signDigest(merchantId, digest);
      expect(recoverAddress(digest, Signature.from(raw))).to.equal(address);
      await signer.signDigest(merchantId, '0x1234').then(
        () => expect.fail('a short digest must be refused'),
        (err: Error) => expect(err.message).to.match(/32 bytes/),
      );
    });

    it('never exposes the seed through inspection or serialisation', () => {
      const signer = new SeedWalletSigner(seed);
      const hex = seed.toString('hex');
      expect(JSON.stringify({ signer })).to.not.include(hex);
      expect(inspect(signer, { showHidden: true, depth: 5 })).to.not.include(hex);
      expect(inspect(signer, { showHidden: true, depth: 5 })).to.not.include(
        seed.subarray(0, 4).toString('hex'),
      );
    });
  });
});
