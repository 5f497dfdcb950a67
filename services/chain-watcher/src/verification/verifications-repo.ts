import type { Knex } from 'knex';
import type { BlockchainName, Currency } from '@stablepay/contracts';
import { VERIFICATIONS } from '../migrations/tables.js';
import { asColumns, insertWorkRowOnce } from '../work-rows/insert-once.js';
import { recoverStaleRows } from '../work-rows/recover-stale-rows.js';
import {
  PAYMENT_CHECKS,
  checkFieldsOf,
  leaseDueChecks,
  type CheckRow,
  type VerificationStatus,
} from './checks-repo.js';

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

const NEW_VERIFICATION_FIELDS = [
  'paymentId',
  'merchantId',
  'txHash',
  'chainId',
  'sourceChain',
  'token',
  'fromAddress',
  'toAddress',
  'expectedUnits',
  'sessionCreatedAt',
  'paymentCreatedAt',
] as const;

export type NewVerification = Pick<VerificationRecord, (typeof NEW_VERIFICATION_FIELDS)[number]>;

/** Records a payment to verify; false when it is already tracked (the same payment announced twice). */
export const insertVerification = async (trx: Knex.Transaction, v: NewVerification): Promise<boolean> => {
  return insertWorkRowOnce(trx, VERIFICATIONS, asColumns(v, NEW_VERIFICATION_FIELDS), 'payment_id');
};

/** A payment to verify, with the correlation id of the message that reported it. */
export type ReportedVerification = NewVerification & { correlationId: string | null };

/**
 * Records payments to verify in one statement; one already tracked (the same payment announced
 * twice) is left as it is.
 */
export const insertVerifications = async (
  trx: Knex.Transaction,
  vs: readonly ReportedVerification[],
): Promise<void> => {
  if (vs.length === 0) return;
  await trx(VERIFICATIONS)
    .insert(vs.map((v) => ({ ...asColumns(v, NEW_VERIFICATION_FIELDS), correlation_id: v.correlationId })))
    .onConflict('payment_id')
    .ignore();
};

/** Due pending payments, leased to the caller (see leaseDueRows); each lease counts as a check. */
export const leaseDueVerifications = async (
  db: Knex,
  limit: number,
  leaseMs: number,
): Promise<VerificationRecord[]> =>
  (await leaseDueChecks<VerificationRow>(db, PAYMENT_CHECKS, limit, leaseMs)).map(toRecord);

/** Pending payments nobody has checked for `staleMs`, made due again (see recoverStaleRows). */
export const recoverStale = (db: Knex, staleMs: number): Promise<number> =>
  recoverStaleRows(db, {
    table: VERIFICATIONS,
    key: 'payment_id',
    open: "status = 'pending'",
    touchedAt: 'coalesce(last_checked_at, created_at)',
    staleMs,
  });

export const findVerification = async (db: Knex, paymentId: string) =>
  db(VERIFICATIONS).where({ payment_id: paymentId }).first();
