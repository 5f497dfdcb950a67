import type { Knex } from 'knex';
import { currentContext, firstOf, rowColumn, rowMapper, type Row } from '@stablepay/platform';
import type { BlockchainName, Currency, TransferFailureReason, TransferPurpose } from '@stablepay/contracts';
import { leaseDueRows } from '../work-rows/lease-due-rows.js';
import { renewRowLeases, type WorkTable } from '../work-rows/row-schedule.js';
import { TRANSFERS } from '../migrations/tables.js';

export type TransferStatus = 'pending' | 'sending' | 'cancelling' | 'confirmed' | 'failed';

export const OPEN_STATUSES: TransferStatus[] = ['pending', 'sending', 'cancelling'];

/** An outgoing transfer as the sender sees it. Addresses are EIP-55; hashes lower-case. */
export interface TransferRecord {
  id: string;
  idempotencyKey: string;
  purpose: TransferPurpose;
  merchantId: string;
  blockchain: BlockchainName;
  chainId: number | null;
  token: Currency;
  tokenAddress: string | null;
  fromAddress: string | null;
  toAddress: string;
  /** the amount as requested (decimal text) */
  amount: string;
  amountUnits: bigint | null;
  authNonce: string;
  validBefore: bigint | null;
  authSignature: string | null;
  status: TransferStatus;
  failureCode: TransferFailureReason | null;
  failureReason: string | null;
  txHash: string | null;
  blockNumber: number | null;
  searchFromBlock: number | null;
  submittedAt: Date | null;
  backoffStep: number;
  rpcFailingSince: Date | null;
  createdAt: Date;
  /** of the message that requested the transfer */
  correlationId: string | null;
}

const { text, str, date, dateOrNull, oneOf } = rowColumn;
/** An INTEGER or BIGINT column (BIGINT arrives as text from pg) as a number. */
const wholeOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** Base units and validBefore, kept exact: the column's text as a bigint. */
const unitsOrNull = (v: unknown): bigint | null => (v === null || v === undefined ? null : BigInt(String(v)));

const toRecord = rowMapper<TransferRecord>({
  id: text,
  idempotencyKey: text,
  purpose: oneOf(),
  merchantId: text,
  blockchain: oneOf(),
  chainId: wholeOrNull,
  token: oneOf(),
  tokenAddress: str,
  fromAddress: str,
  toAddress: text,
  amount: text,
  amountUnits: unitsOrNull,
  authNonce: text,
  validBefore: unitsOrNull,
  authSignature: str,
  status: oneOf(),
  failureCode: (v) => str(v) as TransferFailureReason | null,
  failureReason: str,
  txHash: str,
  blockNumber: wholeOrNull,
  searchFromBlock: wholeOrNull,
  submittedAt: dateOrNull,
  backoffStep: Number,
  rpcFailingSince: dateOrNull,
  createdAt: date,
  correlationId: str,
});

export type NewTransfer = Pick<
  TransferRecord,
  | 'id'
  | 'idempotencyKey'
  | 'purpose'
  | 'merchantId'
  | 'blockchain'
  | 'chainId'
  | 'token'
  | 'tokenAddress'
  | 'fromAddress'
  | 'toAddress'
  | 'amount'
  | 'amountUnits'
  | 'authNonce'
> & {
  /** Set for a command refused at once: the row is stored already failed. */
  failure?: { code: TransferFailureReason; reason: string };
};

/**
 * Records the transfer unless its idempotency key is known; the unique index decides between
 * concurrent deliveries (the second waits for the first to commit, then inserts nothing).
 */
export const insertTransfer = async (
  trx: Knex.Transaction,
  t: NewTransfer,
): Promise<TransferRecord | undefined> => {
  const rows = (await trx(TRANSFERS)
    .insert({
      id: t.id,
      idempotency_key: t.idempotencyKey,
      purpose: t.purpose,
      merchant_id: t.merchantId,
      blockchain: t.blockchain,
      chain_id: t.chainId,
      token: t.token,
      token_address: t.tokenAddress,
      from_address: t.fromAddress,
      to_address: t.toAddress,
      amount: t.amount,
      amount_units: t.amountUnits === null ? null : t.amountUnits.toString(),
      auth_nonce: t.authNonce,
      correlation_id: currentContext().correlationId ?? null,
      ...(t.failure
        ? {
            status: 'failed',
            failure_code: t.failure.code,
            failure_reason: t.failure.reason,
            completed_at: trx.fn.now(),
          }
        : {}),
    })
    .onConflict('idempotency_key')
    .ignore()
    .returning('*')) as Row[];
  return rows[0] ? toRecord(rows[0]) : undefined;
};

export const findTransferByKey = (db: Knex, idempotencyKey: string): Promise<TransferRecord | undefined> =>
  firstOf(db(TRANSFERS).where({ idempotency_key: idempotencyKey }), toRecord);

/** The row locked for the rest of the caller's transaction. */
export const lockTransfer = async (trx: Knex.Transaction, id: string): Promise<TransferRecord> => {
  const row = (await trx(TRANSFERS).where({ id }).forUpdate().first()) as Row | undefined;
  if (!row) throw new Error(`transfer ${id} does not exist`);
  return toRecord(row);
};

/**
 * Due open transfers, leased to the caller as the verifier leases payments (see leaseDueRows). Every
 * write that matters is guarded besides, so a worker that outlives its lease can waste a call but
 * never send or publish twice.
 */
export const leaseDueTransfers = async (
  db: Knex,
  limit: number,
  leaseMs: number,
): Promise<TransferRecord[]> => {
  const rows = await leaseDueRows<Row>(db, {
    table: TRANSFERS,
    key: 'id',
    open: "status in ('pending', 'sending', 'cancelling')",
    limit,
    leaseMs,
  });
  return rows.map(toRecord);
};

export interface TransferReschedule {
  delayMs: number;
  backoffStep: number;
  lastError: string | null;
  /** true: the chain could not be reached (starts the chain_unavailable clock); false: it answered */
  rpcFailing: boolean;
}

/** Releases the lease of an open transfer and says when to look again. */
export const rescheduleTransfer = async (db: Knex, id: string, r: TransferReschedule): Promise<void> => {
  await db.raw(
    `update ${TRANSFERS}
        set next_check_at = now() + (? * interval '1 millisecond'), locked_until = null,
            backoff_step = ?, last_error = ?,
            rpc_failing_since = ${r.rpcFailing ? 'coalesce(rpc_failing_since, now())' : 'null'},
            updated_at = now()
      where id = ? and status in ('pending', 'sending', 'cancelling')`,
    [Math.max(0, Math.round(r.delayMs)), r.backoffStep, r.lastError, id],
  );
};

/** Gives leased rows back untouched (shutdown). */
export const releaseTransferLeases = async (db: Knex, ids: string[]): Promise<void> => {
  await db(TRANSFERS).whereIn('id', ids).whereIn('status', OPEN_STATUSES).update({ locked_until: null });
};

const WORK: WorkTable = { table: TRANSFERS, key: 'id' };

/** Extends the leases of the transfers a worker is still stepping (see renewRowLeases). */
export const renewTransferLeases = (db: Knex, ids: string[], leaseMs: number): Promise<void> =>
  renewRowLeases(db, WORK, ids, leaseMs);

/** pending → sending, with the authorization every attempt of this transfer will carry. */
export const markSending = async (
  trx: Knex.Transaction,
  id: string,
  auth: { validBefore: bigint; signature: string; searchFromBlock: number },
): Promise<boolean> => {
  const n = await trx(TRANSFERS).where({ id, status: 'pending' }).update({
    status: 'sending',
    valid_before: auth.validBefore.toString(),
    auth_signature: auth.signature,
    search_from_block: auth.searchFromBlock,
    rpc_failing_since: null,
    updated_at: trx.fn.now(),
  });
  return n === 1;
};

/** Records the first broadcast; true only for the call that did (transfer.submitted goes out once). */
export const markSubmitted = async (trx: Knex.Transaction, id: string): Promise<boolean> => {
  const n = await trx(TRANSFERS)
    .where({ id })
    .whereNull('submitted_at')
    .whereIn('status', OPEN_STATUSES)
    .update({ submitted_at: trx.fn.now(), updated_at: trx.fn.now() });
  return n === 1;
};

/**
 * sending → cancelling: the transfer transaction reverted with the authorization still unused. The
 * failure to report once the cancellation is mined is stored now.
 */
export const markCancelling = async (
  trx: Knex.Transaction,
  id: string,
  failure: { code: TransferFailureReason; reason: string; txHash: string },
): Promise<boolean> => {
  const n = await trx(TRANSFERS).where({ id, status: 'sending' }).update({
    status: 'cancelling',
    failure_code: failure.code,
    failure_reason: failure.reason,
    tx_hash: failure.txHash,
    updated_at: trx.fn.now(),
  });
  return n === 1;
};

export type TransferEnd =
  | { status: 'confirmed'; txHash: string; blockNumber: number; blockHash: string }
  | { status: 'failed'; code: TransferFailureReason; reason: string; txHash: string | null };

/**
 * The one transition out of an open state, guarded in the UPDATE: of two workers finishing the same
 * transfer, exactly one gets the row back and publishes.
 */
export const finishTransfer = async (
  trx: Knex.Transaction,
  id: string,
  from: TransferStatus[],
  end: TransferEnd,
): Promise<boolean> => {
  const rows = await trx(TRANSFERS)
    .where({ id })
    .whereIn('status', from)
    .update({
      status: end.status,
      tx_hash: end.txHash,
      ...(end.status === 'confirmed'
        ? { block_number: end.blockNumber, block_hash: end.blockHash }
        : { failure_code: end.code, failure_reason: end.reason }),
      locked_until: null,
      completed_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    })
    .returning('id');
  return rows.length === 1;
};
