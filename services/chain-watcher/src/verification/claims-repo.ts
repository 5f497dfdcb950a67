import type { Knex } from 'knex';
import { TX_CLAIMS } from '../migrations/tables.js';

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

export interface TxClaim {
  chainId: number;
  txHash: string;
  paymentId: string;
}

const claimKey = (chainId: number, txHash: string) => `${chainId}:${txHash}`;

/** The holders of the given transactions, keyed `chainId:txHash`; one query for a whole pass. */
export const claimHolders = async (
  db: Knex,
  txs: ReadonlyArray<Pick<TxClaim, 'chainId' | 'txHash'>>,
): Promise<Map<string, string>> => {
  if (txs.length === 0) return new Map();
  const result = (await db.raw(
    `select c.chain_id, c.tx_hash, c.payment_id
       from ${TX_CLAIMS} c
       join jsonb_to_recordset(?::jsonb) as t(chain_id int, tx_hash text)
         on c.chain_id = t.chain_id and c.tx_hash = t.tx_hash`,
    [JSON.stringify(txs.map((t) => ({ chain_id: t.chainId, tx_hash: t.txHash })))],
  )) as { rows: Array<{ chain_id: number; tx_hash: string; payment_id: string }> };
  return new Map(result.rows.map((r) => [claimKey(r.chain_id, r.tx_hash), r.payment_id]));
};

/**
 * claimTransaction for many payments in two statements: the claims are inserted in key order (so
 * two batches claiming overlapping transactions wait for each other instead of deadlocking), then
 * the holders of the ones that were taken already are read. Returns the payments that hold their
 * claim, also where they already did.
 */
export const claimTransactions = async (
  trx: Knex.Transaction,
  claims: readonly TxClaim[],
): Promise<Set<string>> => {
  if (claims.length === 0) return new Set();
  const ordered = [...claims].sort((a, b) => a.chainId - b.chainId || (a.txHash < b.txHash ? -1 : 1));
  const inserted = (await trx(TX_CLAIMS)
    .insert(ordered.map((c) => ({ chain_id: c.chainId, tx_hash: c.txHash, payment_id: c.paymentId })))
    .onConflict(['chain_id', 'tx_hash'])
    .ignore()
    .returning('payment_id')) as Array<{ payment_id: string }>;
  const holding = new Set(inserted.map((r) => r.payment_id));
  const rest = claims.filter((c) => !holding.has(c.paymentId));
  if (rest.length > 0) {
    const holders = await claimHolders(trx, rest);
    for (const c of rest)
      if (holders.get(claimKey(c.chainId, c.txHash)) === c.paymentId) holding.add(c.paymentId);
  }
  return holding;
};

export { claimKey };
