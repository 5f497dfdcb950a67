import type { Knex } from 'knex';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { ChainRegistry } from '@stablepay/contracts';
import type { Metrics } from '@stablepay/platform';
import { pendingVerificationGauges, reconciliationGauges } from './database-gauges.js';

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
}

type Registers = [Metrics['registry']];

const counter = <L extends string>(registers: Registers, name: string, help: string, labelNames: L[] = []) =>
  new Counter<L>({ name, help, labelNames, registers });

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
  verdicts: counter(
    registers,
    'chain_verdicts_total',
    'Verification verdicts by outcome and rejection reason',
    ['chain', 'verdict', 'reason'],
  ),
  unclaimedTransfers: counter(
    registers,
    'unclaimed_transfers_total',
    'Token transfers to merchant wallets that no payment claimed when they were scanned',
    ['chain', 'token'],
  ),
  unclaimedMatched: counter(
    registers,
    'unclaimed_transfers_matched_total',
    'Unclaimed transfers later claimed by a payment',
    ['chain'],
  ),
  recovered: counter(
    registers,
    'chain_verifications_recovered_total',
    'Pending verifications nobody had checked for RECOVERY_AFTER_MS, made due again',
  ),
  reorgs: counter(
    registers,
    'chain_reorgs_detected_total',
    'Payment transactions whose block vanished or changed between two checks',
    ['chain'],
  ),
  scannedBlock: new Gauge<'chain'>({
    name: 'chain_scanner_last_block',
    help: 'Last block the transfer scanner has committed, per chain',
    labelNames: ['chain'],
    registers,
  }),
});

const rpcSeries = (registers: Registers) => ({
  rpcErrors: counter(
    registers,
    'chain_rpc_errors_total',
    'Failed JSON-RPC attempts by chain, method and kind (refused, timeout, rate_limited, server_error, rpc_error)',
    ['chain', 'method', 'kind'],
  ),
  rpcDuration: histogram(registers, {
    name: 'chain_rpc_duration_seconds',
    help: 'JSON-RPC calls (fallback URLs included) by chain, method and outcome (ok, unavailable, error)',
    labelNames: ['chain', 'method', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  }),
  rpcFallbacks: counter(registers, 'chain_rpc_fallbacks_total', 'JSON-RPC calls answered by a fallback URL', [
    'chain',
  ]),
});

const transferSeries = (registers: Registers) => ({
  transferOutcomes: counter(
    registers,
    'chain_transfers_total',
    'Outgoing transfers finished, by outcome and failure code',
    ['chain', 'outcome', 'code'],
  ),
  transferLatency: histogram(registers, {
    name: 'chain_transfer_latency_seconds',
    help: 'Time from the transfer request to its outcome',
    labelNames: ['chain', 'outcome'],
    buckets: [0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600],
  }),
  transferBroadcasts: counter(
    registers,
    'chain_transfer_broadcasts_total',
    'Relayer transactions broadcast, by the node answer (accepted, known, rejected)',
    ['chain', 'result'],
  ),
  transferAttempts: counter(
    registers,
    'chain_transfer_attempts_total',
    'Relayer transactions signed, by kind (first, replacement, renonce) and action (transfer, cancel)',
    ['chain', 'kind', 'action'],
  ),
});

const attestationSeries = (registers: Registers) => ({
  attestationRequests: counter(
    registers,
    'cctp_attestation_requests_total',
    'Attestation API requests by operation and outcome (ok, not_found, rate_limited, server, timeout, network, malformed)',
    ['operation', 'outcome'],
  ),
  attestationDuration: histogram(registers, {
    name: 'cctp_attestation_request_duration_seconds',
    help: 'Time until the attestation API answered (or the request failed)',
    labelNames: ['operation'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  }),
});

export const createChainWatcherMetrics = (
  base: Metrics,
  source?: { db: Knex; registry: ChainRegistry },
): ChainWatcherMetrics => {
  const registers: Registers = [base.registry];
  if (source) {
    pendingVerificationGauges(base, source.db, source.registry);
    reconciliationGauges(base, source.db, source.registry);
  }
  return {
    ...verificationSeries(registers),
    ...rpcSeries(registers),
    ...transferSeries(registers),
    ...attestationSeries(registers),
  };
};
