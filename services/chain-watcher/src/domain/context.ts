import type { Knex } from 'knex';
import type { ChainRegistry } from '@stablepay/contracts';
import type { Logger } from '@stablepay/platform';
import type { ChainClients } from '../chain/chain-rpc.js';
import type { WalletSigner } from '../custody/wallet-signer.js';
import type { ChainWatcherMetrics } from '../metrics.js';
import type { WalletDirectory } from './wallet-directory.js';

/** Timing rules of verification, from configuration. */
export interface VerificationSettings {
  pollMs: number;
  maxBackoffMs: number;
  txNotFoundAfterMs: number;
  /** How long a claimed row belongs to one worker before another may take it over. */
  leaseMs: number;
}

/** Everything the domain operations need, passed explicitly. */
export interface WatcherContext {
  db: Knex;
  registry: ChainRegistry;
  chains: ChainClients;
  signer: WalletSigner;
  wallets: WalletDirectory;
  metrics: ChainWatcherMetrics;
  logger: Logger;
  verification: VerificationSettings;
  /** Called after a transaction that wrote outbox events has committed (wakes the relay). */
  eventsCommitted: () => void;
}
