import { hkdfSync } from 'node:crypto';

/** Order of secp256k1's group: a private key must lie in [1, n-1]. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const SALT = Buffer.from('stablepay/chain-watcher/merchant-wallet', 'utf8');

/** Recorded on every wallet row, so a later scheme can live beside this one. */
export const DERIVATION_SCHEME = 'hkdf-sha256/v1';

/**
 * A merchant's private key: HKDF-SHA256(seed, salt, "v1:<merchantId>:<counter>"). Deterministic, so
 * nothing but the seed needs backing up, and stateless, so no index has to be allocated; the
 * merchant id is a UUID that never changes. The counter moves on only in the astronomically
 * unlikely case that the output is not a valid secp256k1 scalar.
 */
export const deriveMerchantKey = (seed: Buffer, merchantId: string): Buffer => {
  const id = merchantId.toLowerCase();
  for (let counter = 0; ; counter++) {
    const key = Buffer.from(hkdfSync('sha256', seed, SALT, `v1:${id}:${counter}`, 32));
    const scalar = BigInt(`0x${key.toString('hex')}`);
    if (scalar > 0n && scalar < SECP256K1_N) return key;
    key.fill(0);
  }
};

const RELAYER_SALT = Buffer.from('stablepay/chain-watcher/relayer', 'utf8');

/**
 * The gas-paying relayer key of one chain, when RELAYER_PRIVATE_KEYS does not name one:
 * HKDF-SHA256(seed, salt, "v1:<CHAIN>:<counter>"). Keyed by chain name, so a chain keeps its relayer
 * whatever else the registry lists, and distinct from every merchant key (another salt).
 */
export const deriveRelayerKey = (seed: Buffer, chainName: string): Buffer => {
  for (let counter = 0; ; counter++) {
    const key = Buffer.from(hkdfSync('sha256', seed, RELAYER_SALT, `v1:${chainName}:${counter}`, 32));
    const scalar = BigInt(`0x${key.toString('hex')}`);
    if (scalar > 0n && scalar < SECP256K1_N) return key;
    key.fill(0);
  }
};
