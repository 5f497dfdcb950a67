import { inspect } from 'node:util';
import {
  SigningKey,
  Transaction,
  TypedDataEncoder,
  computeAddress,
  hexlify,
  type TransactionLike,
  type TypedDataDomain,
  type TypedDataField,
} from 'ethers';
import { BlockchainName, type ChainConfig } from '@stablepay/contracts';
import { SECP256K1_N, deriveRelayerKey } from './key-derivation.js';

const PRIVATE_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

/**
 * RELAYER_PRIVATE_KEYS once parsed: keys by chain name in a private field, so that a logged or
 * serialised configuration shows nothing of them.
 */
export class RelayerKeySet {
  readonly #keys: Map<BlockchainName, string>;

  constructor(keys: Map<BlockchainName, string>) {
    this.#keys = new Map(keys);
  }

  chains(): BlockchainName[] {
    return [...this.#keys.keys()];
  }

  /** The key of one chain as 0x-hex, for the relayer wallets only. */
  keyOf(chain: BlockchainName): string | undefined {
    return this.#keys.get(chain);
  }

  toJSON(): string {
    return '[RelayerKeySet]';
  }

  [inspect.custom](): string {
    return `[RelayerKeySet ${this.chains().join(',')}]`;
  }
}

/**
 * Parses `{"BASE":"0x...", ...}`. Returns the problem as text on failure; the text never quotes the
 * input, which holds secrets (JSON.parse's own message would).
 */
export const parseRelayerKeys = (text: string): RelayerKeySet | string => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'must be a JSON object of chain name to private key, e.g. {"BASE":"0x<64 hex digits>"}';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'must be a JSON object of chain name to private key';
  }
  const keys = new Map<BlockchainName, string>();
  for (const [name, key] of Object.entries(value)) {
    const chain = BlockchainName.safeParse(name);
    if (!chain.success) return `${name} is not a blockchain name`;
    if (typeof key !== 'string' || !PRIVATE_KEY.test(key)) return `${name}: not a 32-byte hex private key`;
    const hex = key.startsWith('0x') ? key : `0x${key}`;
    const scalar = BigInt(hex);
    if (scalar === 0n || scalar >= SECP256K1_N) return `${name}: not a valid secp256k1 private key`;
    keys.set(chain.data, hex.toLowerCase());
  }
  return new RelayerKeySet(keys);
};

export type RelayerSource = 'configured' | 'derived';

export interface RelayerInfo {
  blockchain: BlockchainName;
  chainId: number;
  address: string;
  source: RelayerSource;
}

interface Relayer extends RelayerInfo {
  key: SigningKey;
}

/**
 * The gas station: one relayer account per chain that submits the merchants' signed authorizations
 * and pays their gas. Keys stay in a private field and only sign transactions; nothing reads them.
 */
export class RelayerWallets {
  readonly #byChainId = new Map<number, Relayer>();

  /**
   * Configured keys first; a chain without one gets the key derived from the master seed, or none
   * when there is no seed (a custody provider signs for the merchants and holds no seed here).
   */
  constructor(chains: ChainConfig[], configured: RelayerKeySet | undefined, seed: Buffer | undefined) {
    for (const chain of chains) {
      const given = configured?.keyOf(chain.name);
      let key: SigningKey | undefined;
      if (given) key = new SigningKey(given);
      else if (seed) {
        const raw = deriveRelayerKey(seed, chain.name);
        key = new SigningKey(hexlify(raw));
        raw.fill(0);
      }
      if (!key) continue;
      this.#byChainId.set(chain.chainId, {
        blockchain: chain.name,
        chainId: chain.chainId,
        address: computeAddress(key.publicKey),
        source: given ? 'configured' : 'derived',
        key,
      });
    }
  }

  /** Every chain's relayer, for funding and monitoring. */
  list(): RelayerInfo[] {
    return [...this.#byChainId.values()].map(({ blockchain, chainId, address, source }) => ({
      blockchain,
      chainId,
      address,
      source,
    }));
  }

  addressOn(chainId: number): string | undefined {
    return this.#byChainId.get(chainId)?.address;
  }

  /** Signs a transaction of the chain's relayer; throws when the chain has none or `from` differs. */
  sign(chainId: number, tx: TransactionLike): Transaction {
    const relayer = this.#byChainId.get(chainId);
    if (!relayer) throw new Error(`no relayer key for chain ${chainId}`);
    const signed = Transaction.from({ ...tx, chainId, from: undefined });
    signed.signature = relayer.key.sign(signed.unsignedHash);
    return signed;
  }

  /**
   * An EIP-712 signature of the chain's relayer as the authorizer of its own funds: the relay wallet
   * of cross-chain payments pays merchants with EIP-3009 authorizations, whose nonces make each
   * payment's transfer happen at most once.
   */
  signTypedData(
    chainId: number,
    domain: TypedDataDomain,
    types: Record<string, TypedDataField[]>,
    value: Record<string, unknown>,
  ): string {
    const relayer = this.#byChainId.get(chainId);
    if (!relayer) throw new Error(`no relayer key for chain ${chainId}`);
    return relayer.key.sign(TypedDataEncoder.hash(domain, types, value)).serialized;
  }

  /** Drops the keys (on shutdown). */
  forget(): void {
    this.#byChainId.clear();
  }

  toJSON(): string {
    return '[RelayerWallets]';
  }

  [inspect.custom](): string {
    return `[RelayerWallets ${this.list()
      .map((r) => `${r.blockchain}=${r.address}`)
      .join(' ')}]`;
  }
}
