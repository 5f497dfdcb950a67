import type { Knex } from 'knex';

/**
 * first: the first transaction of an action; replacement: the same nonce and calldata, higher fees;
 * renonce: the same calldata under a new nonce (the old one was taken by a transaction not ours).
 */
export type AttemptKind = 'first' | 'replacement' | 'renonce';

/** A signed relayer transaction, stored before it is ever broadcast. */
export interface RelayerTransaction<A extends string = string> {
  action: A;
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
  /** the node's refusal the last time it was broadcast, if it was refused */
  lastBroadcastError: string | null;
}

export type NewRelayerTransaction<A extends string = string> = Omit<
  RelayerTransaction<A>,
  'signedAt' | 'broadcastAt' | 'lastBroadcastError'
>;

/**
 * Where one series of relayer transactions is recorded: the attempts of a transfer
 * (transfer_attempts), or those of one action of a cross-chain payment (cctp_relay_transactions).
 * The tables keep their own meaning and share the columns of a signed transaction.
 */
export interface SeriesTable {
  table: string;
  /** the columns naming the series, with their values */
  key: Record<string, string>;
  /** the contract every transaction of the series calls, for a table that does not store it */
  fixedTo?: string;
}

interface RelayerTransactionRow {
  action: string;
  attempt: number;
  kind: AttemptKind;
  chain_id: number;
  relayer_address: string;
  relayer_nonce: string;
  to_address?: string;
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

const toRecord = <A extends string>(
  row: RelayerTransactionRow,
  series: SeriesTable,
): RelayerTransaction<A> => ({
  action: row.action as A,
  attempt: row.attempt,
  kind: row.kind,
  chainId: row.chain_id,
  relayerAddress: row.relayer_address,
  relayerNonce: Number(row.relayer_nonce),
  toAddress: row.to_address ?? series.fixedTo!,
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

export const insertRelayerTransaction = async (
  trx: Knex.Transaction,
  series: SeriesTable,
  t: NewRelayerTransaction,
): Promise<void> => {
  await trx(series.table).insert({
    ...series.key,
    action: t.action,
    attempt: t.attempt,
    kind: t.kind,
    chain_id: t.chainId,
    relayer_address: t.relayerAddress,
    relayer_nonce: t.relayerNonce,
    ...(series.fixedTo === undefined ? { to_address: t.toAddress } : {}),
    tx_hash: t.txHash,
    raw_tx: t.rawTx,
    gas_limit: t.gasLimit.toString(),
    max_fee_per_gas: t.maxFeePerGas?.toString() ?? null,
    max_priority_fee_per_gas: t.maxPriorityFeePerGas?.toString() ?? null,
    gas_price: t.gasPrice?.toString() ?? null,
  });
};

/** Every transaction of a series, oldest first. */
export const listRelayerTransactions = async <A extends string>(
  db: Knex | Knex.Transaction,
  series: SeriesTable,
): Promise<Array<RelayerTransaction<A>>> => {
  const rows = (await db(series.table).where(series.key).orderBy('attempt')) as RelayerTransactionRow[];
  return rows.map((row) => toRecord<A>(row, series));
};

/** How many transactions a series has, read in the transaction that may add one. */
export const countRelayerTransactions = async (
  trx: Knex.Transaction,
  series: SeriesTable,
): Promise<number> => {
  const [{ n }] = (await trx(series.table).where(series.key).count('* as n')) as [{ n: string }];
  return Number(n);
};

/** The node has the transaction (accepted now, or known already). */
export const markRelayerBroadcast = async (db: Knex, series: SeriesTable, attempt: number): Promise<void> => {
  await db(series.table)
    .where({ ...series.key, attempt })
    .update({ broadcast_at: db.raw('coalesce(broadcast_at, now())'), last_broadcast_error: null });
};

export const noteRelayerBroadcastError = async (
  db: Knex,
  series: SeriesTable,
  attempt: number,
  message: string,
): Promise<void> => {
  await db(series.table)
    .where({ ...series.key, attempt })
    .update({ last_broadcast_error: message.slice(0, 500) });
};
