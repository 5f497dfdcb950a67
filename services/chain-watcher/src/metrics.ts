import { Counter, Gauge, Histogram } from 'prom-client';
import type { Metrics } from '@stablepay/platform';

/** The chain-watcher's own series, registered on the service's registry (served at /metrics). */
export interface ChainWatcherMetrics {
  /** payment created (the event's createdAt) → verdict committed */
  verificationLatency: Histogram<'chain' | 'verdict'>;
  verdicts: Counter<'chain' | 'verdict' | 'reason'>;
  rpcErrors: Counter<'chain' | 'kind'>;
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
}

export const createChainWatcherMetrics = (base: Metrics): ChainWatcherMetrics => {
  const registers = [base.registry];
  return {
    verificationLatency: new Histogram({
      name: 'chain_verification_latency_seconds',
      help: 'Time from payment creation to the published verdict',
      labelNames: ['chain', 'verdict'],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 1800],
      registers,
    }),
    verdicts: new Counter({
      name: 'chain_verdicts_total',
      help: 'Verification verdicts by outcome and rejection reason',
      labelNames: ['chain', 'verdict', 'reason'],
      registers,
    }),
    rpcErrors: new Counter({
      name: 'chain_rpc_errors_total',
      help: 'Failed JSON-RPC calls by chain and kind (refused, timeout, rate_limited, server_error, rpc_error)',
      labelNames: ['chain', 'kind'],
      registers,
    }),
    rpcFallbacks: new Counter({
      name: 'chain_rpc_fallbacks_total',
      help: 'JSON-RPC calls answered by a fallback URL',
      labelNames: ['chain'],
      registers,
    }),
    unclaimedTransfers: new Counter({
      name: 'unclaimed_transfers_total',
      help: 'Token transfers to merchant wallets that no payment claimed when they were scanned',
      labelNames: ['chain', 'token'],
      registers,
    }),
    unclaimedMatched: new Counter({
      name: 'unclaimed_transfers_matched_total',
      help: 'Unclaimed transfers later claimed by a payment',
      labelNames: ['chain'],
      registers,
    }),
    recovered: new Counter({
      name: 'chain_verifications_recovered_total',
      help: 'Pending verifications nobody had checked for RECOVERY_AFTER_MS, made due again',
      registers,
    }),
    reorgs: new Counter({
      name: 'chain_reorgs_detected_total',
      help: 'Payment transactions whose block vanished or changed between two checks',
      labelNames: ['chain'],
      registers,
    }),
    scannedBlock: new Gauge({
      name: 'chain_scanner_last_block',
      help: 'Last block the transfer scanner has committed, per chain',
      labelNames: ['chain'],
      registers,
    }),
    transferOutcomes: new Counter({
      name: 'chain_transfers_total',
      help: 'Outgoing transfers finished, by outcome and failure code',
      labelNames: ['chain', 'outcome', 'code'],
      registers,
    }),
    transferLatency: new Histogram({
      name: 'chain_transfer_latency_seconds',
      help: 'Time from the transfer request to its outcome',
      labelNames: ['chain', 'outcome'],
      buckets: [0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600],
      registers,
    }),
    transferBroadcasts: new Counter({
      name: 'chain_transfer_broadcasts_total',
      help: 'Relayer transactions broadcast, by the node answer (accepted, known, rejected)',
      labelNames: ['chain', 'result'],
      registers,
    }),
    transferAttempts: new Counter({
      name: 'chain_transfer_attempts_total',
      help: 'Relayer transactions signed, by kind (first, replacement, renonce) and action (transfer, cancel)',
      labelNames: ['chain', 'kind', 'action'],
      registers,
    }),
  };
};
