import type { Knex } from 'knex';
import type { AttemptKind } from './attempts-repo.js';
import { CCTP_RELAY_TRANSACTIONS } from '../migrations/migrations.js';

/** mint: receiveMessage on the destination; transfer: the relay wallet paying the merchant. */
export type RelayAction = 'mint' | 'transfer';

/** A signed transaction of the relay wallet for one cross-chain payment, stored before broadcast. */
export interface RelayTransaction {
  paymentId: string;
  action: RelayAction;
  attempt: number;
  kind: AttemptKind;
  chainId: number;
  relayerAddress: string;
  relayerNonce: number;
  /** the contract called */
  toAddress: string;
  /** lower-case */
  txHash: string;
  rawTx: string;
  gasLimit: bigint;
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
  gasPrice: bigint | null;
  signedAt: Date;
  broadcastAt: Date | null;
  lastBroadcastError: string | null;
}

interface RelayTransactionRow {
  payment_id: string;
  action: RelayAction;
  attempt: number;
  kind: AttemptKind;
  chain_id: number;
  relayer_address: string;
  relayer_nonce: string;
  to_address: string;
  tx_hash: string;
  raw_tx: string;
  gas_limit: string;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  gas_price: string | null;
  signed_at: Date;
  broadcast_at: Date | null;
  last_broadcast_error: string | null;
}

const big = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

const toRecord = (row: RelayTransactionRow): RelayTransaction => ({
  paymentId: row.payment_id,
  action: row.action,
  attempt: row.attempt,
  kind: row.kind,
  chainId: row.chain_id,
  relayerAddress: row.relayer_address,
  relayerNonce: Number(row.relayer_nonce),
  toAddress: row.to_address,
  txHash: row.tx_hash,
  rawTx: row.raw_tx,
  gasLimit: BigInt(row.gas_limit),
  maxFeePerGas: big(row.max_fee_per_gas),
  maxPriorityFeePerGas: big(row.max_priority_fee_per_gas),
  gasPrice: big(row.gas_price),
  signedAt: row.signed_at,
  broadcastAt: row.broadcast_at,
  lastBroadcastError: row.last_broadcast_error,
});

export type NewRelayTransaction = Omit<RelayTransaction, 'signedAt' | 'broadcastAt' | 'lastBroadcastError'>;

export const insertRelayTransaction = async (
  trx: Knex.Transaction,
  t: NewRelayTransaction,
): Promise<void> => {
  await trx(CCTP_RELAY_TRANSACTIONS).insert({
    payment_id: t.paymentId,
    action: t.action,
    attempt: t.attempt,
    kind: t.kind,
    chain_id: t.chainId,
    relayer_address: t.relayerAddress,
    relayer_nonce: t.relayerNonce,
    to_address: t.toAddress,
    tx_hash: t.txHash,
    raw_tx: t.rawTx,
    gas_limit: t.gasLimit.toString(),
    max_fee_per_gas: t.maxFeePerGas?.toString() ?? null,
    max_priority_fee_per_gas: t.maxPriorityFeePerGas?.toString() ?? null,
    gas_price: t.gasPrice?.toString() ?? null,
  });
};

/** Every transaction of one action of a payment, oldest first. */
export const listRelayTransactions = async (
  db: Knex | Knex.Transaction,
  paymentId: string,
  action: RelayAction,
): Promise<RelayTransaction[]> => {
  const rows = (await db(CCTP_RELAY_TRANSACTIONS)
    .where({ payment_id: paymentId, action })
    .orderBy('attempt')) as RelayTransactionRow[];
  return rows.map(toRecord);
};

/** The node has the transaction (accepted now, or known already). */
export const markRelayBroadcast = async (db: Knex, t: RelayTransaction): Promise<void> => {
  await db(CCTP_RELAY_TRANSACTIONS)
    .where({ payment_id: t.paymentId, action: t.action, attempt: t.attempt })
    .update({ broadcast_at: db.raw('coalesce(broadcast_at, now())'), last_broadcast_error: null });
};

export const noteRelayBroadcastError = async (db: Knex, t: RelayTransaction, message: string) => {
  await db(CCTP_RELAY_TRANSACTIONS)
    .where({ payment_id: t.paymentId, action: t.action, attempt: t.attempt })
    .update({ last_broadcast_error: message.slice(0, 500) });
};
