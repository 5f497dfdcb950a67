import type { Knex } from 'knex';
import type { ChainRegistry, IntegrationEvent } from '@stablepay/contracts';
import {
  afterCommit,
  enqueueEvents,
  wakingEventWriter,
  type EventWriter,
  type Logger,
} from '@stablepay/platform';
import type { AttestationApi } from '../chain/attestation-api.js';
import type { ChainClients } from '../chain/chain-rpc.js';
import type { TokenSlots } from '../chain/token-slots.js';
import type { CctpCrashPoint, GaslessCrashPoint, TransferCrashPoint } from '../config.js';
import type { RelayerWallets } from '../custody/relayer-keys.js';
import type { WalletSigner } from '../custody/wallet-signer.js';
import type { ChainWatcherMetrics } from '../metrics.js';
import type { WalletDirectory } from '../wallets/wallet-directory.js';

/** Timing rules of verification, from configuration. */
export interface VerificationSettings {
  pollMs: number;
  maxBackoffMs: number;
  txNotFoundAfterMs: number;
  /** How long a claimed row belongs to one worker without renewal before another may take it over. */
  leaseMs: number;
}

/** Timing rules of outgoing transfers, from configuration. */
export interface TransferSettings {
  pollMs: number;
  maxBackoffMs: number;
  leaseMs: number;
  /** the latest attempt unmined this long is replaced (same nonce, higher fees) */
  stuckAfterMs: number;
  /** validBefore = first signature + this */
  authorizationTtlMs: number;
  /** an unsigned transfer fails chain_unavailable after its chain failed this long */
  chainUnavailableAfterMs: number;
  /** blocks per eth_getLogs when looking for the transaction that spent an authorization nonce */
  logWindowBlocks: number;
  /** tests only: where the sender kills its own process */
  crashPoint?: TransferCrashPoint;
}

/** Timing rules of cross-chain (CCTP) payments, and the attestation API when one is configured. */
export interface CctpSettings {
  pollMs: number;
  maxBackoffMs: number;
  leaseMs: number;
  /** a burn not minted to the merchant this long after the payment was created fails mint_not_found */
  mintTimeoutMs: number;
  /** relayer flow: a verified burn not attested this long after its verification fails attestation_timeout */
  attestationWaitMs: number;
  attestation?: AttestationApi;
  /** tests only: where the relayer flow kills its own process */
  crashPoint?: CctpCrashPoint;
}

/** The relay's rules for customers' signed authorizations (gasless payments), from configuration. */
export interface GaslessSettings {
  pollMs: number;
  maxBackoffMs: number;
  leaseMs: number;
  /** wei of native coin per merchant, chain and UTC day */
  dailyGasBudgetWei: (chainName: string) => bigint;
  /** the relay's native balance must cover this many submissions at the worst-case fee */
  gasMargin: number;
  lowGasRetryAfterS: number;
  /** tests only: where the submission kills its own process */
  crashPoint?: GaslessCrashPoint;
}

/** How the chain-watcher writes its events: each wakes the outbox relay once its transaction commits. */
export interface WatcherRecording {
  /** Writes an integration event in the caller's transaction. */
  writeEvent: EventWriter;
  /**
   * Writes events built beforehand, in one statement: a verdict's event keeps the correlation id of
   * the message that reported its transaction, which the worker writing it does not run under.
   */
  writeEvents: (trx: Knex.Transaction, events: ReadonlyArray<IntegrationEvent>) => Promise<void>;
}

/** The recording half of the context; `wake` is the outbox relay's (`ServiceKit.eventsCommitted`). */
export const watcherRecording = (wake: () => void): WatcherRecording => ({
  writeEvent: wakingEventWriter('chain-watcher', wake),
  writeEvents: async (trx, events) => {
    if (events.length === 0) return;
    await enqueueEvents(trx, events);
    afterCommit(trx, wake);
  },
});

/** Everything the domain operations need, passed explicitly. */
export interface WatcherContext extends WatcherRecording {
  db: Knex;
  registry: ChainRegistry;
  chains: ChainClients;
  signer: WalletSigner;
  wallets: WalletDirectory;
  metrics: ChainWatcherMetrics;
  logger: Logger;
  verification: VerificationSettings;
  /** the per-chain gas-paying accounts that submit merchants' authorizations */
  relayers: RelayerWallets;
  transfers: TransferSettings;
  cctp: CctpSettings;
  gasless: GaslessSettings;
  /** EIP-712 domain names of token contracts by chain id and address (fixed at deployment) */
  tokenNames: Map<string, string>;
  /** storage slots of token balances and allowances by chain id and address, for state overrides */
  tokenSlots: Map<string, TokenSlots | { unknown: string }>;
}
