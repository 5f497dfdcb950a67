import type { Knex } from 'knex';
import { UNCLAIMED_TRANSFERS } from '../migrations/tables.js';
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
