import type { Knex } from 'knex';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { ChainRegistry } from '@stablepay/contracts';
import type { Metrics } from '@stablepay/platform';
import type { ChainClients } from './chain/chain-rpc.js';
import type { RelayerWallets } from './custody/relayer-keys.js';
import { chainStateSeries } from './gauges/chain-state-gauges.js';
import { pendingVerificationGauges, reconciliationGauges } from './gauges/database-gauges.js';

/** The chain-watcher's own series, registered on the service's registry (served at /metrics). */
export interface ChainWatcherMetrics {
  /** payment created (the event's createdAt) → verdict committed */
  verificationLatency: Histogram<'chain' | 'verdict'>;
  verdicts: Counter<'chain' | 'verdict' | 'reason'>;
  /** one per failed attempt at one URL */
  rpcErrors: Counter<'chain' | 'method' | 'kind'>;
  /** one per call, fallbacks included: outcome = ok | unavailable (every URL failed) | error (the node refused it) */
  rpcDuration: Histogram<'chain' | 'method' | 'outcome'>;
  /** calls answered by a fallback URL after an earlier URL failed */
  rpcFallbacks: Counter<'chain'>;
  unclaimedTransfers: Counter<'chain' | 'token'>;
  unclaimedMatched: Counter<'chain'>;
  /** tracked verifications made due again by the recovery sweep */
  recovered: Counter;
  reorgs: Counter<'chain'>;
  scannedBlock: Gauge<'chain'>;
  /** outgoing transfers finished, by outcome (confirmed, failed) and failure code */
  transferOutcomes: Counter<'chain' | 'outcome' | 'code'>;
  /** transfer requested → outcome committed */
  transferLatency: Histogram<'chain' | 'outcome'>;
  /** relayer broadcasts by the node's answer (accepted, known, rejected) */
  transferBroadcasts: Counter<'chain' | 'result'>;
  /** relayer transactions signed, by kind (first, replacement, renonce) and action (transfer, cancel) */
  transferAttempts: Counter<'chain' | 'kind' | 'action'>;
  /** attestation API requests by operation (messages, reattest) and outcome (ok, not_found or the failure kind) */
  attestationRequests: Counter<'operation' | 'outcome'>;
  attestationDuration: Histogram<'operation'>;
  /** gas the relay paid submitting customers' authorizations, in ether units of the chain's coin */
  gaslessGasSpent: Counter<'chain' | 'merchant'>;
  /** gasless submissions settled, by outcome (relayed, used_elsewhere, expired, cancelled) */
  gaslessSubmissions: Counter<'chain' | 'outcome'>;
  /** authorizations the check refused, by refusal code (relay_low_on_gas, relay_gas_budget_spent, ...) */
  gaslessRefusals: Counter<'chain' | 'code'>;
  /** cross-chain burn gas priced by the check and the quote: estimated, or the fixed figure */
  gaslessBurnGasEstimates: Counter<'chain' | 'outcome'>;
}

/** Series read from the database or the chains at each scrape (see gauges/). */
const SCRAPED = {
  pendingVerifications: {
    name: 'chain_pending_verifications',
    help: 'Same-chain payments waiting for a verdict',
  },
  oldestPendingVerification: {
    name: 'chain_oldest_pending_verification_seconds',
    help: 'Age of the oldest same-chain payment waiting for a verdict (0 when none waits)',
  },
  reconciliationDifference: {
    name: 'ledger_reconciliation_difference_units',
    help: 'Latest reconciliation: sum of |balanceOf - ledger balance| over wallets in discrepancy, in token base units',
  },
  reconciliationDiscrepancies: {
    name: 'ledger_reconciliation_discrepancies',
    help: 'Latest reconciliation: merchant wallets whose on-chain balance no recorded movement explains',
  },
  reconciliationAge: {
    name: 'ledger_reconciliation_age_seconds',
    help: 'Seconds since the latest reconciliation of the ledger with the chain finished',
  },
  relayerBalance: {
    name: 'chain_relayer_balance_ether',
    help: "Native balance of each chain's relayer (gas for refunds, withdrawals and mints), in ether units",
  },
  headAge: {
    name: 'chain_head_age_seconds',
    help: "Seconds since the timestamp of each chain's latest block",
  },
};

type Registers = [Metrics['registry']];

const counter = <L extends string>(
  registers: Registers,
  spec: { name: string; help: string; labelNames?: L[] },
) => new Counter<L>({ labelNames: [], ...spec, registers });

const histogram = <L extends string>(
  registers: Registers,
  spec: { name: string; help: string; labelNames: L[]; buckets: number[] },
) => new Histogram<L>({ ...spec, registers });

const verificationSeries = (registers: Registers) => ({
  verificationLatency: histogram(registers, {
    name: 'chain_verification_latency_seconds',
    help: 'Time from payment creation to the published verdict',
    labelNames: ['chain', 'verdict'],
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 1800],
  }),
  verdicts: counter(registers, {
    name: 'chain_verdicts_total',
    help: 'Verification verdicts by outcome and rejection reason',
    labelNames: ['chain', 'verdict', 'reason'],
  }),
  unclaimedTransfers: counter(registers, {
    name: 'unclaimed_transfers_total',
    help: 'Token transfers to merchant wallets that no payment claimed when they were scanned',
    labelNames: ['chain', 'token'],
  }),
  unclaimedMatched: counter(registers, {
    name: 'unclaimed_transfers_matched_total',
    help: 'Unclaimed transfers later claimed by a payment',
    labelNames: ['chain'],
  }),
  recovered: counter(registers, {
    name: 'chain_verifications_recovered_total',
    help: 'Pending verifications nobody had checked for RECOVERY_AFTER_MS, made due again',
  }),
  reorgs: counter(registers, {
    name: 'chain_reorgs_detected_total',
    help: 'Payment transactions whose block vanished or changed between two checks',
    labelNames: ['chain'],
  }),
  scannedBlock: new Gauge<'chain'>({
    name: 'chain_scanner_last_block',
    help: 'Last block the transfer scanner has committed, per chain',
    labelNames: ['chain'],
    registers,
  }),
});

const rpcSeries = (registers: Registers) => ({
  rpcErrors: counter(registers, {
    name: 'chain_rpc_errors_total',
    help: 'Failed JSON-RPC attempts by chain, method and kind (refused, timeout, rate_limited, server_error, rpc_error)',
    labelNames: ['chain', 'method', 'kind'],
  }),
  rpcDuration: histogram(registers, {
    name: 'chain_rpc_duration_seconds',
    help: 'JSON-RPC calls (fallback URLs included) by chain, method and outcome (ok, unavailable, error)',
    labelNames: ['chain', 'method', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  }),
  rpcFallbacks: counter(registers, {
    name: 'chain_rpc_fallbacks_total',
    help: 'JSON-RPC calls answered by a fallback URL',
    labelNames: ['chain'],
  }),
});

const transferSeries = (registers: Registers) => ({
  transferOutcomes: counter(registers, {
    name: 'chain_transfers_total',
    help: 'Outgoing transfers finished, by outcome and failure code',
    labelNames: ['chain', 'outcome', 'code'],
  }),
  transferLatency: histogram(registers, {
    name: 'chain_transfer_latency_seconds',
    help: 'Time from the transfer request to its outcome',
    labelNames: ['chain', 'outcome'],
    buckets: [0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600],
  }),
  transferBroadcasts: counter(registers, {
    name: 'chain_transfer_broadcasts_total',
    help: 'Relayer transactions broadcast, by the node answer (accepted, known, rejected)',
    labelNames: ['chain', 'result'],
  }),
  transferAttempts: counter(registers, {
    name: 'chain_transfer_attempts_total',
    help: 'Relayer transactions signed, by kind (first, replacement, renonce) and action (transfer, cancel)',
    labelNames: ['chain', 'kind', 'action'],
  }),
});

const attestationSeries = (registers: Registers) => ({
  attestationRequests: counter(registers, {
    name: 'cctp_attestation_requests_total',
    help: 'Attestation API requests by operation and outcome (ok, not_found, rate_limited, server, timeout, network, malformed)',
    labelNames: ['operation', 'outcome'],
  }),
  attestationDuration: histogram(registers, {
    name: 'cctp_attestation_request_duration_seconds',
    help: 'Time until the attestation API answered (or the request failed)',
    labelNames: ['operation'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  }),
});

const gaslessSeries = (registers: Registers) => ({
  gaslessGasSpent: counter(registers, {
    name: 'chain_gasless_relay_gas_spent_ether_total',
    help: "Gas the relay paid submitting customers' signed authorizations, per chain and merchant, in ether units",
    labelNames: ['chain', 'merchant'],
  }),
  gaslessSubmissions: counter(registers, {
    name: 'chain_gasless_submissions_total',
    help: 'Gasless payments whose submission settled, by outcome (relayed, used_elsewhere, expired, cancelled)',
    labelNames: ['chain', 'outcome'],
  }),
  gaslessRefusals: counter(registers, {
    name: 'chain_gasless_refusals_total',
    help: 'Authorizations the gasless check refused, by refusal code (relay_low_on_gas, relay_gas_budget_spent, ...)',
    labelNames: ['chain', 'code'],
  }),
  gaslessBurnGasEstimates: counter(registers, {
    name: 'chain_gasless_burn_gas_estimates_total',
    help: "How the relay's cross-chain approval and burn gas was priced: estimated under a state override, or the fixed figure where the node refuses overrides",
    labelNames: ['chain', 'outcome'],
  }),
});

export const createChainWatcherMetrics = (
  base: Metrics,
  source?: { db: Knex; registry: ChainRegistry },
): ChainWatcherMetrics => {
  const registers: Registers = [base.registry];
  if (source) {
    pendingVerificationGauges(base, source.db, source.registry, {
      waiting: SCRAPED.pendingVerifications,
      oldest: SCRAPED.oldestPendingVerification,
    });
    reconciliationGauges(base, source.db, source.registry, {
      difference: SCRAPED.reconciliationDifference,
      discrepancies: SCRAPED.reconciliationDiscrepancies,
      age: SCRAPED.reconciliationAge,
    });
  }
  return {
    ...verificationSeries(registers),
    ...rpcSeries(registers),
    ...transferSeries(registers),
    ...attestationSeries(registers),
    ...gaslessSeries(registers),
  };
};

/** The relayers' gas and the age of each chain's head, read from the chains at scrape time. */
export const chainStateGauges = (
  base: Metrics,
  chains: ChainClients,
  relayers: RelayerWallets,
  cacheMs: number,
): void =>
  chainStateSeries(base, chains, relayers, cacheMs, {
    relayerBalance: SCRAPED.relayerBalance,
    headAge: SCRAPED.headAge,
  });
