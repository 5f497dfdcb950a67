import type { Knex } from 'knex';
import type { ChainConfig } from '@stablepay/contracts';
import type { Logger } from '@stablepay/platform';
import { loadOrCreateMasterSeed } from './master-seed.js';
import { RelayerWallets, type RelayerKeySet } from './relayer-keys.js';
import { SeedWalletSigner, type WalletSigner } from './wallet-signer.js';

/** The keys the service signs with: the merchants' (through a signer) and the relayers'. */
export interface Custody {
  signer: WalletSigner;
  relayers: RelayerWallets;
  /** Drops every key held in memory (on shutdown). */
  forget(): void;
}

/**
 * Opens the master seed (a WALLET_KEK that cannot open it stops the start here) and derives the
 * merchant signer and the relayers without a configured key from it. With a signer given (a KMS or
 * custody provider) the seed is not touched, and only configured relayer keys exist.
 */
export const openCustody = async (opts: {
  db: Knex;
  kek: Buffer;
  /** WALLET_KEK_PREVIOUS, during a rotation: a seed still sealed under it is re-sealed under `kek`. */
  previousKek?: Buffer;
  logger?: Logger;
  chains: ChainConfig[];
  relayerKeys: RelayerKeySet | undefined;
  signer?: WalletSigner;
}): Promise<Custody> => {
  if (opts.signer) {
    const relayers = new RelayerWallets(opts.chains, opts.relayerKeys, undefined);
    return { signer: opts.signer, relayers, forget: () => relayers.forget() };
  }
  const seed = await loadOrCreateMasterSeed(opts.db, opts.kek, {
    previousKek: opts.previousKek,
    logger: opts.logger,
  });
  try {
    const signer = new SeedWalletSigner(seed);
    const relayers = new RelayerWallets(opts.chains, opts.relayerKeys, seed);
    return {
      signer,
      relayers,
      forget: () => {
        signer.wipe();
        relayers.forget();
      },
    };
  } finally {
    seed.fill(0);
  }
};
