import type { Knex } from 'knex';
import { RELAYER_NONCES, TRANSFER_ATTEMPTS } from '../migrations/migrations.js';

/**
 * first: the first transaction of an action; replacement: the same nonce and calldata, higher fees;
 * renonce: the same calldata under a new nonce (the old one was taken by a transaction not ours).
 */
export type AttemptKind = 'first' | 'replacement' | 'renonce';
/** transfer: transferWithAuthorization; cancel: cancelAuthorization of the same nonce */
export type AttemptAction = 'transfer' | 'cancel';

/** A signed relayer transaction of a transfer, stored before it is ever broadcast. */
export interface AttemptRecord {
  transferId: string;
  attempt: number;
  kind: AttemptKind;
  action: AttemptAction;
  chainId: number;
  relayerAddress: string;
  relayerNonce: number;
  /** lower-case */
  txHash: string;
  rawTx: string;
  gasLimit: bigint;
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
  gasPrice: bigint | null;
  signedAt: Date;
  broadcastAt: Date | null;
  /** the node's refusal the last time it was broadcast, if it was refused */
  lastBroadcastError: string | null;
}

interface AttemptRow {
  transfer_id: string;
  attempt: number;
  kind: AttemptKind;
  action: AttemptAction;
  chain_id: number;
  relayer_address: string;
  relayer_nonce: string;
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

const toRecord = (row: AttemptRow): AttemptRecord => ({
  transferId: row.transfer_id,
  attempt: row.attempt,
  kind: row.kind,
  action: row.action,
  chainId: row.chain_id,
  relayerAddress: row.relayer_address,
  relayerNonce: Number(row.relayer_nonce),
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

export type NewAttempt = Omit<AttemptRecord, 'signedAt' | 'broadcastAt' | 'lastBroadcastError'>;

export const insertAttempt = async (trx: Knex.Transaction, a: NewAttempt): Promise<void> => {
  await trx(TRANSFER_ATTEMPTS).insert({
    transfer_id: a.transferId,
    attempt: a.attempt,
    kind: a.kind,
    action: a.action,
    chain_id: a.chainId,
    relayer_address: a.relayerAddress,
    relayer_nonce: a.relayerNonce,
    tx_hash: a.txHash,
    raw_tx: a.rawTx,
    gas_limit: a.gasLimit.toString(),
    max_fee_per_gas: a.maxFeePerGas?.toString() ?? null,
    max_priority_fee_per_gas: a.maxPriorityFeePerGas?.toString() ?? null,
    gas_price: a.gasPrice?.toString() ?? null,
  });
};

/** Every attempt of a transfer, oldest first. */
export const listAttempts = async (db: Knex, transferId: string): Promise<AttemptRecord[]> => {
  const rows = (await db(TRANSFER_ATTEMPTS)
    .where({ transfer_id: transferId })
    .orderBy('attempt')) as AttemptRow[];
  return rows.map(toRecord);
};

/** The node has the transaction (accepted now, or known already). */
export const markBroadcast = async (db: Knex, transferId: string, attempt: number): Promise<void> => {
  await db(TRANSFER_ATTEMPTS)
    .where({ transfer_id: transferId, attempt })
    .update({ broadcast_at: db.raw('coalesce(broadcast_at, now())'), last_broadcast_error: null });
};

export const noteBroadcastError = async (
  db: Knex,
  transferId: string,
  attempt: number,
  message: string,
): Promise<void> => {
  await db(TRANSFER_ATTEMPTS)
    .where({ transfer_id: transferId, attempt })
    .update({ last_broadcast_error: message.slice(0, 500) });
};

/**
 * The relayer's next nonce on a chain, taken under the row's lock in the caller's transaction (which
 * also stores the transaction signed with it): replicas allocating at once queue on the lock and
 * get consecutive nonces. Never below `chainPending` (eth_getTransactionCount "pending"), so a
 * relayer also used elsewhere, or a fresh table, starts where the chain stands.
 */
export const allocateRelayerNonce = async (
  trx: Knex.Transaction,
  chainId: number,
  relayerAddress: string,
  chainPending: number,
): Promise<number> => {
  await trx(RELAYER_NONCES)
    .insert({ chain_id: chainId, relayer_address: relayerAddress, next_nonce: chainPending })
    .onConflict(['chain_id', 'relayer_address'])
    .ignore();
  const row = (await trx(RELAYER_NONCES)
    .where({ chain_id: chainId, relayer_address: relayerAddress })
    .forUpdate()
    .first('next_nonce')) as { next_nonce: string };
  const nonce = Math.max(Number(row.next_nonce), chainPending);
  await trx(RELAYER_NONCES)
    .where({ chain_id: chainId, relayer_address: relayerAddress })
    .update({ next_nonce: nonce + 1, updated_at: trx.fn.now() });
  return nonce;
};
