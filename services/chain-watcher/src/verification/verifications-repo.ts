import type { Knex } from 'knex';
import { currentContext } from '@stablepay/platform';
import type { BlockchainName, Currency } from '@stablepay/contracts';
import { VERIFICATIONS } from '../migrations/tables.js';
import {
  PAYMENT_CHECKS,
  checkFieldsOf,
  leaseDueChecks,
  type CheckRow,
  type VerificationStatus,
} from './checks-repo.js';
import { hasTopUpForTx } from './top-ups-repo.js';

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

interface VerificationRow extends CheckRow {
  payment_id: string;
  expected_units: string;
  payment_created_at: Date;
}

const toRecord = (row: VerificationRow): VerificationRecord => ({
  ...checkFieldsOf(row),
  paymentId: row.payment_id,
  expectedUnits: BigInt(row.expected_units),
  paymentCreatedAt: row.payment_created_at,
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
): Promise<VerificationRecord[]> =>
  (await leaseDueChecks<VerificationRow>(db, PAYMENT_CHECKS, limit, leaseMs)).map(toRecord);

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
