import type { Knex } from 'knex';
import { currentContext } from '@stablepay/platform';
import type { BlockchainName, ChainPaymentRejectReason, Currency } from '@stablepay/contracts';
import { leaseDueRows } from '../leases/lease-due-rows.js';
import { VERIFICATIONS } from '../migrations/tables.js';
import { hasTopUpForTx } from './top-ups-repo.js';

export type VerificationStatus = 'pending' | 'verified' | 'rejected';

/** A tracked same-chain payment, as the worker sees it. */
export interface VerificationRecord {
  paymentId: string;
  merchantId: string;
  /** lower-case */
  txHash: string;
  chainId: number;
  sourceChain: BlockchainName;
  token: Currency;
  fromAddress: string;
  toAddress: string;
  expectedUnits: bigint;
  sessionCreatedAt: Date | null;
  paymentCreatedAt: Date;
  status: VerificationStatus;
  blockNumber: number | null;
  blockHash: string | null;
  backoffStep: number;
  checkCount: number;
  /** of the request or message that created the payment */
  correlationId: string | null;
}

interface VerificationRow {
  payment_id: string;
  merchant_id: string;
  tx_hash: string;
  chain_id: number;
  source_chain: string;
  token: string;
  from_address: string;
  to_address: string;
  expected_units: string;
  session_created_at: Date | null;
  payment_created_at: Date;
  status: VerificationStatus;
  block_number: string | null;
  block_hash: string | null;
  backoff_step: number;
  check_count: number;
  correlation_id: string | null;
}

const toRecord = (row: VerificationRow): VerificationRecord => ({
  paymentId: row.payment_id,
  merchantId: row.merchant_id,
  txHash: row.tx_hash,
  chainId: row.chain_id,
  sourceChain: row.source_chain as BlockchainName,
  token: row.token as Currency,
  fromAddress: row.from_address,
  toAddress: row.to_address,
  expectedUnits: BigInt(row.expected_units),
  sessionCreatedAt: row.session_created_at,
  paymentCreatedAt: row.payment_created_at,
  status: row.status,
  blockNumber: row.block_number === null ? null : Number(row.block_number),
  blockHash: row.block_hash,
  backoffStep: row.backoff_step,
  checkCount: row.check_count,
  correlationId: row.correlation_id,
});

export type NewVerification = Pick<
  VerificationRecord,
  | 'paymentId'
  | 'merchantId'
  | 'txHash'
  | 'chainId'
  | 'sourceChain'
  | 'token'
  | 'fromAddress'
  | 'toAddress'
  | 'expectedUnits'
  | 'sessionCreatedAt'
  | 'paymentCreatedAt'
>;

/** Records a payment to verify; false when it is already tracked (the same payment announced twice). */
export const insertVerification = async (trx: Knex.Transaction, v: NewVerification): Promise<boolean> => {
  const rows = await trx(VERIFICATIONS)
    .insert({
      payment_id: v.paymentId,
      merchant_id: v.merchantId,
      tx_hash: v.txHash,
      chain_id: v.chainId,
      source_chain: v.sourceChain,
      token: v.token,
      from_address: v.fromAddress,
      to_address: v.toAddress,
      expected_units: v.expectedUnits.toString(),
      session_created_at: v.sessionCreatedAt,
      payment_created_at: v.paymentCreatedAt,
      correlation_id: currentContext().correlationId ?? null,
    })
    .onConflict('payment_id')
    .ignore()
    .returning('payment_id');
  return rows.length === 1;
};

/** Due pending payments, leased to the caller (see leaseDueRows); each lease counts as a check. */
export const leaseDueVerifications = async (
  db: Knex,
  limit: number,
  leaseMs: number,
): Promise<VerificationRecord[]> => {
  const rows = await leaseDueRows<VerificationRow>(db, {
    table: VERIFICATIONS,
    key: 'payment_id',
    open: "status = 'pending'",
    alsoSet: 'check_count = check_count + 1',
    limit,
    leaseMs,
  });
  return rows.map(toRecord);
};

export interface Reschedule {
  delayMs: number;
  backoffStep: number;
  blockNumber: number | null;
  blockHash: string | null;
  lastError: string | null;
}

/** Gives leased rows back untouched (shutdown), keeping their schedule. */
export const releaseLeases = async (db: Knex, paymentIds: string[]): Promise<void> => {
  await db(VERIFICATIONS)
    .whereIn('payment_id', paymentIds)
    .where({ status: 'pending' })
    .update({ locked_until: null, check_count: db.raw('greatest(check_count - 1, 0)') });
};

export interface Decision {
  status: 'verified' | 'rejected';
  reason: ChainPaymentRejectReason | null;
  receivedUnits: bigint | null;
  detail: string | null;
  blockNumber: number | null;
  blockHash: string | null;
}

/**
 * The one transition out of `pending`, guarded in the UPDATE itself: of two workers deciding the same
 * payment, exactly one gets the row back and publishes; the other changes nothing.
 */
export const decide = async (trx: Knex.Transaction, paymentId: string, d: Decision): Promise<boolean> => {
  const rows = await trx(VERIFICATIONS)
    .where({ payment_id: paymentId, status: 'pending' })
    .update({
      status: d.status,
      reason: d.reason,
      received_units: d.receivedUnits === null ? null : d.receivedUnits.toString(),
      detail: d.detail,
      block_number: d.blockNumber,
      block_hash: d.blockHash,
      locked_until: null,
      last_checked_at: trx.fn.now(),
      decided_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    })
    .returning('payment_id');
  return rows.length === 1;
};

/**
 * decide for many payments in one statement, each guarded as decide is; returns the payments this
 * call moved out of `pending` (the others were decided elsewhere).
 */
export const decideMany = async (
  trx: Knex.Transaction,
  decisions: ReadonlyArray<{ paymentId: string; decision: Decision }>,
): Promise<Set<string>> => {
  if (decisions.length === 0) return new Set();
  const input = decisions.map(({ paymentId, decision: d }) => ({
    payment_id: paymentId,
    status: d.status,
    reason: d.reason,
    received_units: d.receivedUnits === null ? null : d.receivedUnits.toString(),
    detail: d.detail,
    block_number: d.blockNumber,
    block_hash: d.blockHash,
  }));
  const result = (await trx.raw(
    `update ${VERIFICATIONS} v
        set status = d.status, reason = d.reason, received_units = d.received_units::numeric,
            detail = d.detail, block_number = d.block_number, block_hash = d.block_hash,
            locked_until = null, last_checked_at = now(), decided_at = now(), updated_at = now()
       from jsonb_to_recordset(?::jsonb) as d(payment_id uuid, status text, reason text,
              received_units text, detail text, block_number bigint, block_hash text)
      where v.payment_id = d.payment_id and v.status = 'pending'
      returning v.payment_id`,
    [JSON.stringify(input)],
  )) as { rows: Array<{ payment_id: string }> };
  return new Set(result.rows.map((r) => r.payment_id));
};

/** Releases the leases of rows that stay pending and says when to look at each again, in one statement. */
export const rescheduleMany = async (
  db: Knex,
  rows: ReadonlyArray<{ paymentId: string } & Reschedule>,
): Promise<void> => {
  if (rows.length === 0) return;
  const input = rows.map((r) => ({
    payment_id: r.paymentId,
    delay_ms: Math.max(0, Math.round(r.delayMs)),
    backoff_step: r.backoffStep,
    block_number: r.blockNumber,
    block_hash: r.blockHash,
    last_error: r.lastError,
  }));
  await db.raw(
    `update ${VERIFICATIONS} v
        set next_check_at = now() + (r.delay_ms * interval '1 millisecond'), locked_until = null,
            backoff_step = r.backoff_step, block_number = r.block_number, block_hash = r.block_hash,
            last_error = r.last_error, last_checked_at = now(), updated_at = now()
       from jsonb_to_recordset(?::jsonb) as r(payment_id uuid, delay_ms bigint, backoff_step int,
              block_number bigint, block_hash text, last_error text)
      where v.payment_id = r.payment_id and v.status = 'pending'`,
    [JSON.stringify(input)],
  );
};

/**
 * Pending rows nobody has touched for `staleMs` and that nobody holds: made due at once. Capped
 * backoff already brings every row back; this catches whatever slipped through (a clock jump, a row
 * edited by hand, a lease that was set far ahead).
 */
export const recoverStale = async (db: Knex, staleMs: number): Promise<number> => {
  const result = (await db.raw(
    `update ${VERIFICATIONS}
        set next_check_at = now(), locked_until = null, backoff_step = 0, updated_at = now()
      where status = 'pending'
        and coalesce(last_checked_at, created_at) < now() - (? * interval '1 millisecond')
        and next_check_at > now()
        and (locked_until is null or locked_until < now())
      returning payment_id`,
    [staleMs],
  )) as { rows: unknown[] };
  return result.rows.length;
};

/** True when a payment's transaction, or a reported top-up, is this transaction (its verdict records it). */
export const hasVerificationForTx = async (db: Knex, chainId: number, txHash: string): Promise<boolean> =>
  (await db(VERIFICATIONS).where({ chain_id: chainId, tx_hash: txHash }).first('payment_id')) !== undefined ||
  (await hasTopUpForTx(db, chainId, txHash));

export const findVerification = async (db: Knex, paymentId: string) =>
  db(VERIFICATIONS).where({ payment_id: paymentId }).first();
