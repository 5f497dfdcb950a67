import type { Knex } from 'knex';
import { TX_CLAIMS } from './migrations.js';

/** The payment holding a transaction on a chain, if any. */
export const claimHolder = async (db: Knex, chainId: number, txHash: string): Promise<string | undefined> => {
  const row = (await db(TX_CLAIMS).where({ chain_id: chainId, tx_hash: txHash }).first('payment_id')) as
    { payment_id: string } | undefined;
  return row?.payment_id;
};

/**
 * Claims the transaction for the payment; the primary key decides between concurrent claimants (the
 * second waits for the first to commit, then sees its row). True when this payment holds the claim,
 * also when it already did.
 */
export const claimTransaction = async (
  trx: Knex.Transaction,
  chainId: number,
  txHash: string,
  paymentId: string,
): Promise<boolean> => {
  const inserted = await trx(TX_CLAIMS)
    .insert({ chain_id: chainId, tx_hash: txHash, payment_id: paymentId })
    .onConflict(['chain_id', 'tx_hash'])
    .ignore()
    .returning('payment_id');
  if (inserted.length === 1) return true;
  return (await claimHolder(trx, chainId, txHash)) === paymentId;
};
