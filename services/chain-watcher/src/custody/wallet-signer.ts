import {
  SigningKey,
  Wallet,
  computeAddress,
  getBytes,
  hexlify,
  type BytesLike,
  type TypedDataDomain,
  type TypedDataField,
} from 'ethers';
import { deriveMerchantKey } from './key-derivation.js';
import { SEED_BYTES } from './seed-crypto.js';

/**
 * Everything the service does with merchant keys, behind one interface: the seed-derived signer
 * below, or a KMS or custody provider that never hands out key material. Callers name the merchant,
 * never a key.
 */
export interface WalletSigner {
  /** The merchant's wallet address (checksummed). */
  addressOf(merchantId: string): Promise<string>;
  /** EIP-712 signature (65 bytes, 0x-hex), e.g. an EIP-3009 transferWithAuthorization. */
  signTypedData(
    merchantId: string,
    domain: TypedDataDomain,
    types: Record<string, TypedDataField[]>,
    value: Record<string, unknown>,
  ): Promise<string>;
  /** Raw ECDSA over a 32-byte digest, no prefix (65 bytes r‖s‖v, 0x-hex). */
  signDigest(merchantId: string, digest: BytesLike): Promise<string>;
}

/**
 * Keys derived from the master seed held in memory. The seed sits in a private field: it is not
 * enumerable, so neither a logger nor JSON.stringify can reach it, and keys exist only for the
 * duration of one signature.
 */
export class SeedWalletSigner implements WalletSigner {
  readonly #seed: Buffer;
  readonly #addresses = new Map<string, string>();

  constructor(seed: Buffer) {
    if (seed.length !== SEED_BYTES) throw new Error(`master seed must be ${SEED_BYTES} bytes`);
    this.#seed = Buffer.from(seed);
  }

  async addressOf(merchantId: string): Promise<string> {
    const id = merchantId.toLowerCase();
    let address = this.#addresses.get(id);
    if (!address) {
      address = this.withKey(id, (key) => computeAddress(key.publicKey));
      this.#addresses.set(id, address);
    }
    return address;
  }

  async signTypedData(
    merchantId: string,
    domain: TypedDataDomain,
    types: Record<string, TypedDataField[]>,
    value: Record<string, unknown>,
  ): Promise<string> {
    return this.withKey(merchantId, (key) => new Wallet(key).signTypedData(domain, types, value));
  }

  async signDigest(merchantId: string, digest: BytesLike): Promise<string> {
    const bytes = getBytes(digest);
    if (bytes.length !== 32) throw new Error('digest must be 32 bytes');
    return this.withKey(merchantId, (key) => key.sign(bytes).serialized);
  }

  /** Drops the seed from memory (on shutdown). */
  wipe(): void {
    this.#seed.fill(0);
    this.#addresses.clear();
  }

  toJSON(): string {
    return '[SeedWalletSigner]';
  }

  private withKey<T>(merchantId: string, use: (key: SigningKey) => T): T {
    const raw = deriveMerchantKey(this.#seed, merchantId);
    try {
      return use(new SigningKey(hexlify(raw)));
    } finally {
      raw.fill(0);
    }
  }
}
