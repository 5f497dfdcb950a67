import type { Knex } from 'knex';
import { TOP_UP_VERIFICATIONS, TX_CLAIMS, UNCLAIMED_TRANSFERS, VERIFICATIONS } from '../migrations/tables.js';

export interface NewUnclaimedTransfer {
  id: string;
  chainId: number;
  blockchain: string;
  txHash: string;
  logIndex: number;
  token: string;
  tokenAddress: string;
  fromAddress: string;
  toAddress: string;
  amountUnits: bigint;
  blockNumber: number;
  blockHash: string;
  walletId: string;
  merchantId: string;
}

/**
 * Serialises everything that decides whether a transfer is claimed (recording a payment, recording
 * an unclaimed transfer) per chain and transaction, so that neither can miss the other's commit.
 */
export const lockTransaction = async (
  trx: Knex.Transaction,
  chainId: number,
  txHash: string,
): Promise<void> => {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, ?))', [txHash.toLowerCase(), chainId]);
};

/** A transaction on a chain. */
export interface ChainTransaction {
  chainId: number;
  txHash: string;
}

/**
 * lockTransaction for many transactions, of any chains, in one statement. They are locked in one
 * order (chain, then hash), so that two batches sharing transactions wait for each other instead
 * of deadlocking.
 */
export const lockChainTransactions = async (
  trx: Knex.Transaction,
  txs: readonly ChainTransaction[],
): Promise<void> => {
  const keys = [
    ...new Map(
      txs.map((t) => {
        const txHash = t.txHash.toLowerCase();
        return [`${t.chainId}:${txHash}`, { chainId: t.chainId, txHash }];
      }),
    ).values(),
  ].sort((a, b) => a.chainId - b.chainId || (a.txHash < b.txHash ? -1 : a.txHash > b.txHash ? 1 : 0));
  if (keys.length === 0) return;
  // Hashes are hex: plain array literals. unnest keeps the arrays' order: the locks are taken in it.
  await trx.raw(
    `select count(pg_advisory_xact_lock(hashtextextended(t.h, t.c))) from unnest(?::text[], ?::bigint[]) as t(h, c)`,
    [`{${keys.map((k) => k.txHash).join(',')}}`, `{${keys.map((k) => k.chainId).join(',')}}`],
  );
};

/** lockChainTransactions for the transactions of a scanned range. */
export const lockTransactions = (
  trx: Knex.Transaction,
  chainId: number,
  txHashes: readonly string[],
): Promise<void> =>
  lockChainTransactions(
    trx,
    txHashes.map((txHash) => ({ chainId, txHash })),
  );

/**
 * Of `txHashes`, those a payment or a reported top-up already stands for: a verification or a
 * top-up recorded for the transaction, or a payment's claim on it (a CCTP mint). One statement;
 * read under lockTransactions, so that no recording of a payment can slip in between.
 */
export const explainedTransactions = async (
  trx: Knex.Transaction,
  chainId: number,
  txHashes: readonly string[],
): Promise<Set<string>> => {
  if (txHashes.length === 0) return new Set();
  // Hashes are hex: a plain array literal, looked up in each table's (chain_id, tx_hash) index.
  const hashes = `{${[...new Set(txHashes)].join(',')}}`;
  const inTable = (table: string) =>
    `select tx_hash from ${table} where chain_id = ? and tx_hash = any(?::text[])`;
  const { rows } = (await trx.raw(
    [VERIFICATIONS, TOP_UP_VERIFICATIONS, TX_CLAIMS].map(inTable).join(' union '),
    [chainId, hashes, chainId, hashes, chainId, hashes],
  )) as { rows: Array<{ tx_hash: string }> };
  return new Set(rows.map((r) => r.tx_hash));
};

/**
 * Records the transfers in one statement; returns the ids of those that are new (the same log
 * scanned twice is recorded once).
 */
export const insertUnclaimed = async (
  trx: Knex.Transaction,
  ts: readonly NewUnclaimedTransfer[],
): Promise<Set<string>> => {
  if (ts.length === 0) return new Set();
  const rows = (await trx(UNCLAIMED_TRANSFERS)
    .insert(
      ts.map((t) => ({
        id: t.id,
        chain_id: t.chainId,
        blockchain: t.blockchain,
        tx_hash: t.txHash,
        log_index: t.logIndex,
        token: t.token,
        token_address: t.tokenAddress,
        from_address: t.fromAddress,
        to_address: t.toAddress,
        amount_units: t.amountUnits.toString(),
        block_number: t.blockNumber,
        block_hash: t.blockHash,
        wallet_id: t.walletId,
        merchant_id: t.merchantId,
      })),
    )
    .onConflict(['chain_id', 'tx_hash', 'log_index'])
    .ignore()
    .returning('id')) as Array<{ id: string }>;
  return new Set(rows.map((r) => r.id));
};

/** A payment that now claims a transaction. */
export interface TransactionClaimant extends ChainTransaction {
  paymentId: string;
}

/**
 * Payments now claim these transactions: their unclaimed transfers are matched, in one statement.
 * Of two payments naming the same transaction, the first in the list gets its transfers, as when
 * they were matched one after the other. Returns the matched transfers, by payment.
 */
export const markAllMatched = async (
  trx: Knex.Transaction,
  claimants: readonly TransactionClaimant[],
): Promise<Map<string, number>> => {
  const first = new Map<string, TransactionClaimant>();
  for (const c of claimants) {
    const key = `${c.chainId}:${c.txHash}`;
    if (!first.has(key)) first.set(key, c);
  }
  if (first.size === 0) return new Map();
  const { rows } = (await trx.raw(
    `update ${UNCLAIMED_TRANSFERS} u
        set status = 'matched', matched_payment_id = c.payment_id, matched_at = now()
       from jsonb_to_recordset(?::jsonb) as c(chain_id int, tx_hash text, payment_id uuid)
      where u.chain_id = c.chain_id and u.tx_hash = c.tx_hash and u.status = 'unclaimed'
      returning c.payment_id`,
    [
      JSON.stringify(
        [...first.values()].map((c) => ({ chain_id: c.chainId, tx_hash: c.txHash, payment_id: c.paymentId })),
      ),
    ],
  )) as { rows: Array<{ payment_id: string }> };
  const matched = new Map<string, number>();
  for (const r of rows) matched.set(r.payment_id, (matched.get(r.payment_id) ?? 0) + 1);
  return matched;
};

/** A payment now claims the transaction: its unclaimed transfers are matched. Returns how many. */
export const markMatched = async (
  trx: Knex.Transaction,
  chainId: number,
  txHash: string,
  paymentId: string,
): Promise<number> => (await markAllMatched(trx, [{ chainId, txHash, paymentId }])).get(paymentId) ?? 0;
