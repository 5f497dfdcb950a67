import type { Knex } from 'knex';
import { CCTP_PAYMENTS, TRANSFERS, VERIFICATIONS } from '../migrations/tables.js';
import { OPEN_STATUSES } from '../transfers/transfers-repo.js';
import { LEDGER_ENTRIES, RECONCILIATION_RUNS, RECONCILIATION_WALLETS } from './migration.js';

export type WalletCheckStatus = 'agrees' | 'in_flight' | 'discrepancy' | 'unreadable';

export interface WalletCheck {
  merchantId: string;
  chainId: number;
  blockchain: string;
  token: string;
  address: string;
  blockNumber: number | null;
  ledgerBalance: bigint | null;
  onchainBalance: bigint | null;
  status: WalletCheckStatus;
  error: string | null;
}

export interface ReconciliationRun {
  id: string;
  checkedAt: Date;
  finishedAt: Date | null;
  wallets: number;
  discrepancies: number;
  errors: number;
}

/**
 * Starts a run unless one started less than `minGapMs` ago, under a lock that replicas share: one
 * run per interval whatever the number of workers. Returns false when another run is recent.
 */
export const startRun = async (db: Knex, id: string, minGapMs: number): Promise<boolean> =>
  db.transaction(async (trx) => {
    const locked = (await trx.raw(
      `select pg_try_advisory_xact_lock(hashtext('ledger-reconciliation')) as ok`,
    )) as {
      rows: Array<{ ok: boolean }>;
    };
    if (!locked.rows[0]?.ok) return false;
    const recent = await trx(RECONCILIATION_RUNS)
      .where('checked_at', '>', trx.raw(`now() - (? * interval '1 millisecond')`, [minGapMs]))
      .first('id');
    if (recent) return false;
    await trx(RECONCILIATION_RUNS).insert({ id, checked_at: trx.fn.now(), status: 'running' });
    return true;
  });

/**
 * The ledger's wallet balance of every (wallet, token) of a chain at the end of `blockNumber`, in
 * one query: address lower case → token → base units.
 */
export const ledgerBalancesAt = async (
  db: Knex,
  chainId: number,
  blockNumber: number,
): Promise<Map<string, Map<string, bigint>>> => {
  const rows = (await db(LEDGER_ENTRIES)
    .select('wallet_address', 'token')
    .sum({ total: 'amount' })
    .where({ chain_id: chainId, account: 'wallet' })
    .andWhere('block_number', '<=', blockNumber)
    .groupBy('wallet_address', 'token')) as Array<{ wallet_address: string; token: string; total: string }>;
  const out = new Map<string, Map<string, bigint>>();
  for (const r of rows) {
    const byToken = out.get(r.wallet_address) ?? new Map<string, bigint>();
    byToken.set(r.token, BigInt(r.total));
    out.set(r.wallet_address, byToken);
  }
  return out;
};

/**
 * Merchants with a movement on this chain that the ledger records only once it is decided: a
 * payment waiting for its verdict, a cross-chain payment not settled yet, an outgoing transfer not
 * confirmed yet. A difference on their wallets may be that movement, so it is not yet a discrepancy.
 */
export const merchantsInFlight = async (db: Knex, chainId: number): Promise<Set<string>> => {
  const rows = (await db.raw(
    `select merchant_id from ${VERIFICATIONS} where status = 'pending' and chain_id = ?
     union select merchant_id from ${CCTP_PAYMENTS}
       where step not in ('done', 'failed') and (destination_chain_id = ? or source_chain_id = ?)
     union select merchant_id from ${TRANSFERS} where status in (${OPEN_STATUSES.map(() => '?').join(', ')}) and chain_id = ?`,
    [chainId, chainId, chainId, ...OPEN_STATUSES, chainId],
  )) as { rows: Array<{ merchant_id: string }> };
  return new Set(rows.rows.map((r) => r.merchant_id));
};

const text = (units: bigint | null) => (units === null ? null : units.toString());

/**
 * Stores a run's findings and closes it. Earlier runs keep only the wallets that did not agree, so
 * the history of discrepancies stays while the table does not grow with every run.
 */
export const finishRun = async (db: Knex, runId: string, checks: readonly WalletCheck[]): Promise<void> => {
  await db.transaction(async (trx) => {
    for (let i = 0; i < checks.length; i += 500) {
      await trx(RECONCILIATION_WALLETS).insert(
        checks.slice(i, i + 500).map((c) => ({
          run_id: runId,
          merchant_id: c.merchantId,
          chain_id: c.chainId,
          blockchain: c.blockchain,
          token: c.token,
          address: c.address,
          block_number: c.blockNumber,
          ledger_balance: text(c.ledgerBalance),
          onchain_balance: text(c.onchainBalance),
          difference:
            c.ledgerBalance === null || c.onchainBalance === null
              ? null
              : (c.onchainBalance - c.ledgerBalance).toString(),
          status: c.status,
          error: c.error,
        })),
      );
    }
    await trx(RECONCILIATION_RUNS)
      .where({ id: runId })
      .update({
        status: 'complete',
        finished_at: trx.fn.now(),
        wallets: checks.length,
        discrepancies: checks.filter((c) => c.status === 'discrepancy').length,
        errors: checks.filter((c) => c.status === 'unreadable').length,
      });
    await trx(RECONCILIATION_WALLETS).whereNot({ run_id: runId }).andWhere({ status: 'agrees' }).delete();
    // A run a crashed worker left open never finishes: drop it once a later one did.
    await trx(RECONCILIATION_RUNS)
      .where({ status: 'running' })
      .andWhere('checked_at', '<', trx.raw(`now() - interval '1 hour'`))
      .delete();
  });
};

interface RunRow {
  id: string;
  checked_at: Date;
  finished_at: Date | null;
  wallets: number;
  discrepancies: number;
  errors: number;
}

const toRun = (r: RunRow): ReconciliationRun => ({
  id: r.id,
  checkedAt: r.checked_at,
  finishedAt: r.finished_at,
  wallets: r.wallets,
  discrepancies: r.discrepancies,
  errors: r.errors,
});

export const latestCompleteRun = async (db: Knex): Promise<ReconciliationRun | undefined> => {
  const row = (await db(RECONCILIATION_RUNS)
    .where({ status: 'complete' })
    .orderBy('checked_at', 'desc')
    .first()) as RunRow | undefined;
  return row ? toRun(row) : undefined;
};

interface WalletRow {
  merchant_id: string;
  chain_id: number;
  blockchain: string;
  token: string;
  address: string;
  block_number: string | null;
  ledger_balance: string | null;
  onchain_balance: string | null;
  status: WalletCheckStatus;
  error: string | null;
}

const big = (v: string | null) => (v === null ? null : BigInt(v));

/** One run's wallets of one merchant. */
export const runWallets = async (db: Knex, runId: string, merchantId: string): Promise<WalletCheck[]> => {
  const q = db(RECONCILIATION_WALLETS).where({ run_id: runId, merchant_id: merchantId });
  const rows = (await q.orderBy(['blockchain', 'address', 'token'])) as WalletRow[];
  return rows.map((r) => ({
    merchantId: r.merchant_id,
    chainId: r.chain_id,
    blockchain: r.blockchain,
    token: r.token,
    address: r.address,
    blockNumber: r.block_number === null ? null : Number(r.block_number),
    ledgerBalance: big(r.ledger_balance),
    onchainBalance: big(r.onchain_balance),
    status: r.status,
    error: r.error,
  }));
};

/** Per chain and token: the absolute differences of the latest run's discrepancies, and how many. */
export const latestDiscrepancyTotals = async (
  db: Knex,
): Promise<
  | { ageSeconds: number; rows: Array<{ blockchain: string; token: string; units: bigint; wallets: number }> }
  | undefined
> => {
  const run = (await db(RECONCILIATION_RUNS)
    .where({ status: 'complete' })
    .orderBy('checked_at', 'desc')
    .first('id', db.raw('extract(epoch from now() - finished_at)::float8 as age'))) as
    { id: string; age: number } | undefined;
  if (!run) return undefined;
  const rows = (await db(RECONCILIATION_WALLETS)
    .select('blockchain', 'token')
    .select(db.raw(`coalesce(sum(abs(difference)), 0)::text as units`))
    .select(db.raw(`count(*)::int as wallets`))
    .where({ run_id: run.id, status: 'discrepancy' })
    .groupBy('blockchain', 'token')) as Array<{
    blockchain: string;
    token: string;
    units: string;
    wallets: number;
  }>;
  return {
    ageSeconds: Number(run.age),
    rows: rows.map((r) => ({
      blockchain: r.blockchain,
      token: r.token,
      units: BigInt(r.units),
      wallets: r.wallets,
    })),
  };
};
