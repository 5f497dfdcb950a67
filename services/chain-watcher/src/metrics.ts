import { formatEther } from 'ethers';
import type { Knex } from 'knex';
import { Counter, Gauge, Histogram } from 'prom-client';
import { chainById, type ChainRegistry } from '@stablepay/contracts';
import type { Metrics } from '@stablepay/platform';
import type { ChainClients } from './chain/chain-rpc.js';
import { MalformedRpcAnswer, parseBlock } from './chain/rpc-facts.js';
import { ScrapeCache } from './chain/scrape-cache.js';
import type { RelayerWallets } from './custody/relayer-keys.js';
import { VERIFICATIONS } from './migrations/tables.js';
import { latestDiscrepancyTotals } from './ledger/reconciliation-repo.js';

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

/**
 * Payments waiting for a verdict, per chain, read from the database at each scrape: how many, and
 * how long the oldest has waited since it was created (the lag an operator acts on).
 */
const pendingVerificationGauges = (base: Metrics, db: Knex, registry: ChainRegistry): void => {
  const read = async () =>
    (
      (await db.raw(
        `select chain_id, count(*)::int as waiting,
                extract(epoch from now() - min(payment_created_at))::float8 as oldest
           from ${VERIFICATIONS} where status = 'pending' group by chain_id`,
      )) as { rows: Array<{ chain_id: number; waiting: number; oldest: number }> }
    ).rows;
  const gauge = (spec: {
    name: string;
    help: string;
    pick: (r: { waiting: number; oldest: number }) => number;
  }) =>
    new Gauge({
      name: spec.name,
      help: spec.help,
      labelNames: ['chain'],
      registers: [base.registry],
      async collect() {
        const rows = await read().catch(() => undefined);
        if (!rows) return;
        this.reset();
        for (const chain of registry.chains) this.set({ chain: chain.name }, 0);
        for (const r of rows)
          this.set(
            { chain: chainById(registry, Number(r.chain_id))?.name ?? String(r.chain_id) },
            spec.pick(r),
          );
      },
    });
  gauge({
    name: 'chain_pending_verifications',
    help: 'Same-chain payments waiting for a verdict',
    pick: (r) => r.waiting,
  });
  gauge({
    name: 'chain_oldest_pending_verification_seconds',
    help: 'Age of the oldest same-chain payment waiting for a verdict (0 when none waits)',
    pick: (r) => Number(r.oldest),
  });
};

/**
 * The latest reconciliation of the ledger with the chain, read from the database at scrape time so
 * that every replica reports the same: the absolute difference of the wallets in discrepancy per
 * chain and token (0 when they agree), how many they are, and how old the run is.
 */
const reconciliationGauges = (base: Metrics, db: Knex, registry: ChainRegistry): void => {
  let latest: ReturnType<typeof latestDiscrepancyTotals> | undefined;
  let readAt = 0;
  // One query per scrape for the three series.
  const read = () => {
    if (!latest || Date.now() - readAt > 1_000) {
      latest = latestDiscrepancyTotals(db).catch(() => undefined);
      readAt = Date.now();
    }
    return latest;
  };
  const perToken = (spec: {
    name: string;
    help: string;
    pick: (r: { units: bigint; wallets: number }) => number;
  }) =>
    new Gauge({
      name: spec.name,
      help: spec.help,
      labelNames: ['chain', 'token'],
      registers: [base.registry],
      async collect() {
        const totals = await read();
        if (!totals) return;
        this.reset();
        for (const chain of registry.chains) {
          for (const token of Object.keys(chain.tokens)) this.set({ chain: chain.name, token }, 0);
        }
        for (const r of totals.rows) this.set({ chain: r.blockchain, token: r.token }, spec.pick(r));
      },
    });
  perToken({
    name: 'ledger_reconciliation_difference_units',
    help: 'Latest reconciliation: sum of |balanceOf - ledger balance| over wallets in discrepancy, in token base units',
    pick: (r) => Number(r.units),
  });
  perToken({
    name: 'ledger_reconciliation_discrepancies',
    help: 'Latest reconciliation: merchant wallets whose on-chain balance no recorded movement explains',
    pick: (r) => r.wallets,
  });
  new Gauge({
    name: 'ledger_reconciliation_age_seconds',
    help: 'Seconds since the latest reconciliation of the ledger with the chain finished',
    registers: [base.registry],
    async collect() {
      const totals = await read();
      if (totals) this.set(totals.ageSeconds);
    },
  });
};

export const createChainWatcherMetrics = (
  base: Metrics,
  source?: { db: Knex; registry: ChainRegistry },
): ChainWatcherMetrics => {
  const registers = [base.registry];
  if (source) {
    pendingVerificationGauges(base, source.db, source.registry);
    reconciliationGauges(base, source.db, source.registry);
  }
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
      help: 'Failed JSON-RPC attempts by chain, method and kind (refused, timeout, rate_limited, server_error, rpc_error)',
      labelNames: ['chain', 'method', 'kind'],
      registers,
    }),
    rpcDuration: new Histogram({
      name: 'chain_rpc_duration_seconds',
      help: 'JSON-RPC calls (fallback URLs included) by chain, method and outcome (ok, unavailable, error)',
      labelNames: ['chain', 'method', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
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
    attestationRequests: new Counter({
      name: 'cctp_attestation_requests_total',
      help: 'Attestation API requests by operation and outcome (ok, not_found, rate_limited, server, timeout, network, malformed)',
      labelNames: ['operation', 'outcome'],
      registers,
    }),
    attestationDuration: new Histogram({
      name: 'cctp_attestation_request_duration_seconds',
      help: 'Time until the attestation API answered (or the request failed)',
      labelNames: ['operation'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
  };
};

/** How long a scrape waits for a chain read before it answers without it. */
const SCRAPE_WAIT_MS = 2_000;

/**
 * What only the chains can say, read at scrape time through each chain's RPC client (so failures
 * count in chain_rpc_errors_total) and cached for `cacheMs`: the relayers' gas and how old each
 * chain's head is. A chain that cannot be read leaves its series out of the scrape.
 */
export const chainStateGauges = (
  base: Metrics,
  chains: ChainClients,
  relayers: RelayerWallets,
  cacheMs: number,
): void => {
  const opts = { ttlMs: cacheMs, waitMs: SCRAPE_WAIT_MS };
  const balances = relayers.list().flatMap((r) => {
    const rpc = chains.get(r.chainId);
    if (!rpc) return [];
    const read = () => rpc.call('eth_getBalance', (p) => p.getBalance(r.address));
    return [{ chain: rpc.name, address: r.address, cache: new ScrapeCache(read, opts) }];
  });
  new Gauge({
    name: 'chain_relayer_balance_ether',
    help: "Native balance of each chain's relayer (gas for refunds, withdrawals and mints), in ether units",
    labelNames: ['chain', 'address'],
    registers: [base.registry],
    async collect() {
      const read = await Promise.all(balances.map(async (b) => ({ ...b, wei: await b.cache.get() })));
      this.reset();
      for (const b of read) {
        if (b.wei !== undefined) this.set({ chain: b.chain, address: b.address }, Number(formatEther(b.wei)));
      }
    },
  });

  // The head's timestamp is what is cached: the age keeps growing between reads, as it should.
  const heads = chains.all().map((rpc) => {
    const read = () =>
      rpc.call('eth_getBlockByNumber[latest]', async (p) => {
        const block = parseBlock(await p.send('eth_getBlockByNumber', ['latest', false]));
        if (!block) throw new MalformedRpcAnswer('no latest block');
        return block.timestamp;
      });
    return { chain: rpc.name, cache: new ScrapeCache(read, opts) };
  });
  new Gauge({
    name: 'chain_head_age_seconds',
    help: "Seconds since the timestamp of each chain's latest block",
    labelNames: ['chain'],
    registers: [base.registry],
    async collect() {
      const read = await Promise.all(heads.map(async (h) => ({ ...h, timestamp: await h.cache.get() })));
      this.reset();
      const now = Date.now() / 1000;
      for (const h of read) {
        if (h.timestamp !== undefined) this.set({ chain: h.chain }, Math.max(0, now - h.timestamp));
      }
    },
  });
};
