import type { Knex } from 'knex';
import { TOP_UP_VERIFICATIONS, TX_CLAIMS, UNCLAIMED_TRANSFERS, VERIFICATIONS } from '../migrations/tables.js';
import { insertOnce } from '../work-rows/insert-once.js';

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

/**
 * lockTransaction for every transaction of a scanned range, in one statement. The hashes are
 * locked in one order, so that two scans sharing transactions wait for each other instead of
 * deadlocking.
 */
export const lockTransactions = async (
  trx: Knex.Transaction,
  chainId: number,
  txHashes: readonly string[],
): Promise<void> => {
  const hashes = [...new Set(txHashes.map((h) => h.toLowerCase()))].sort();
  if (hashes.length === 0) return;
  // Sorted above, and unnest keeps the array's order: the locks are taken in that order.
  await trx.raw(`select count(pg_advisory_xact_lock(hashtextextended(h, ?))) from unnest(?::text[]) as h`, [
    chainId,
    `{${hashes.join(',')}}`,
  ]);
};

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

/** True when the row is new (the same log scanned twice is recorded once). */
export const insertUnclaimed = async (trx: Knex.Transaction, t: NewUnclaimedTransfer): Promise<boolean> => {
  return insertOnce(
    trx,
    UNCLAIMED_TRANSFERS,
    {
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
    },
    ['chain_id', 'tx_hash', 'log_index'],
    'id',
  );
};

/** A payment now claims the transaction: its unclaimed transfers are matched. Returns how many. */
export const markMatched = async (
  trx: Knex.Transaction,
  chainId: number,
  txHash: string,
  paymentId: string,
): Promise<number> => {
  const rows = await trx(UNCLAIMED_TRANSFERS)
    .where({ chain_id: chainId, tx_hash: txHash, status: 'unclaimed' })
    .update({ status: 'matched', matched_payment_id: paymentId, matched_at: trx.fn.now() })
    .returning('id');
  return rows.length;
};
