import type { Knex } from 'knex';
import type { PaymentTopUpReportedData } from '@stablepay/contracts';
import { TOP_UP_VERIFICATIONS } from '../migrations/tables.js';
import { insertWorkRowOnce } from '../work-rows/insert-once.js';
import { TOP_UP_CHECKS, checkFieldsOf, leaseDueChecks, type CheckRow } from './checks-repo.js';
import type { VerificationRecord } from './verifications-repo.js';

/** A reported top-up to check: the payment's verification record for another transaction. */
export interface TopUpVerificationRecord extends VerificationRecord {
  topUpId: string;
}

interface TopUpRow extends CheckRow {
  top_up_id: string;
  payment_id: string;
  reported_at: Date;
}

/**
 * A top-up counts whatever amount of the token moved from the payer to the merchant wallet, so it
 * expects one base unit; the transaction-not-found deadline runs from when it was reported.
 */
const toRecord = (row: TopUpRow): TopUpVerificationRecord => ({
  ...checkFieldsOf(row),
  topUpId: row.top_up_id,
  paymentId: row.payment_id,
  expectedUnits: 1n,
  paymentCreatedAt: row.reported_at,
});

/** Records a reported top-up to verify; false when it is already tracked. */
export const insertTopUpVerification = async (
  trx: Knex.Transaction,
  t: PaymentTopUpReportedData,
): Promise<boolean> => {
  return insertWorkRowOnce(
    trx,
    TOP_UP_VERIFICATIONS,
    {
      top_up_id: t.topUpId,
      payment_id: t.paymentId,
      merchant_id: t.merchantId,
      tx_hash: t.txHash.toLowerCase(),
      chain_id: t.chainId,
      source_chain: t.sourceChain,
      token: t.currency,
      from_address: t.fromAddress,
      to_address: t.toAddress,
      session_created_at: t.sessionCreatedAt ? new Date(t.sessionCreatedAt) : null,
      reported_at: new Date(t.reportedAt),
    },
    'top_up_id',
  );
};

export const leaseDueTopUps = async (
  db: Knex,
  limit: number,
  leaseMs: number,
): Promise<TopUpVerificationRecord[]> =>
  (await leaseDueChecks<TopUpRow>(db, TOP_UP_CHECKS, limit, leaseMs)).map(toRecord);
