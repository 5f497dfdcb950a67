import type { Knex } from 'knex';
import { currentContext } from '@stablepay/platform';
import type { BlockchainName, Currency, PaymentTopUpReportedData } from '@stablepay/contracts';
import { leaseDueRows } from '../leases/lease-due-rows.js';
import { TOP_UP_VERIFICATIONS } from '../migrations/tables.js';
import type { Decision, Reschedule, VerificationRecord } from './verifications-repo.js';

/** A reported top-up to check: the payment's verification record for another transaction. */
export interface TopUpVerificationRecord extends VerificationRecord {
  topUpId: string;
}

interface TopUpRow {
  top_up_id: string;
  payment_id: string;
  merchant_id: string;
  tx_hash: string;
  chain_id: number;
  source_chain: string;
  token: string;
  from_address: string;
  to_address: string;
  session_created_at: Date | null;
  reported_at: Date;
  status: 'pending' | 'verified' | 'rejected';
  block_number: string | null;
  block_hash: string | null;
  backoff_step: number;
  check_count: number;
  correlation_id: string | null;
}

/**
 * A top-up counts whatever amount of the token moved from the payer to the merchant wallet, so it
 * expects one base unit; the transaction-not-found deadline runs from when it was reported.
 */
const toRecord = (row: TopUpRow): TopUpVerificationRecord => ({
  topUpId: row.top_up_id,
  paymentId: row.payment_id,
  merchantId: row.merchant_id,
  txHash: row.tx_hash,
  chainId: row.chain_id,
  sourceChain: row.source_chain as BlockchainName,
  token: row.token as Currency,
  fromAddress: row.from_address,
  toAddress: row.to_address,
  expectedUnits: 1n,
  sessionCreatedAt: row.session_created_at,
  paymentCreatedAt: row.reported_at,
  status: row.status,
  blockNumber: row.block_number === null ? null : Number(row.block_number),
  blockHash: row.block_hash,
  backoffStep: row.backoff_step,
  checkCount: row.check_count,
  correlationId: row.correlation_id,
});

/** Records a reported top-up to verify; false when it is already tracked. */
export const insertTopUpVerification = async (
  trx: Knex.Transaction,
  t: PaymentTopUpReportedData,
): Promise<boolean> => {
  const rows = await trx(TOP_UP_VERIFICATIONS)
    .insert({
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
      correlation_id: currentContext().correlationId ?? null,
    })
    .onConflict('top_up_id')
    .ignore()
    .returning('top_up_id');
  return rows.length === 1;
};

export const leaseDueTopUps = async (
  db: Knex,
  limit: number,
  leaseMs: number,
): Promise<TopUpVerificationRecord[]> => {
  const rows = await leaseDueRows<TopUpRow>(db, {
    table: TOP_UP_VERIFICATIONS,
    key: 'top_up_id',
    open: "status = 'pending'",
    alsoSet: 'check_count = check_count + 1',
    limit,
    leaseMs,
  });
  return rows.map(toRecord);
};

/** The one transition out of `pending`, guarded in the UPDATE: false when decided elsewhere. */
export const decideTopUp = async (trx: Knex.Transaction, topUpId: string, d: Decision): Promise<boolean> => {
  const rows = await trx(TOP_UP_VERIFICATIONS)
    .where({ top_up_id: topUpId, status: 'pending' })
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
    .returning('top_up_id');
  return rows.length === 1;
};

export const rescheduleTopUp = async (db: Knex, topUpId: string, r: Reschedule): Promise<void> => {
  await db(TOP_UP_VERIFICATIONS)
    .where({ top_up_id: topUpId, status: 'pending' })
    .update({
      next_check_at: db.raw(`now() + (? * interval '1 millisecond')`, [Math.max(0, Math.round(r.delayMs))]),
      locked_until: null,
      backoff_step: r.backoffStep,
      block_number: r.blockNumber,
      block_hash: r.blockHash,
      last_error: r.lastError,
      last_checked_at: db.fn.now(),
      updated_at: db.fn.now(),
    });
};

export const releaseTopUpLeases = async (db: Knex, topUpIds: string[]): Promise<void> => {
  await db(TOP_UP_VERIFICATIONS)
    .whereIn('top_up_id', topUpIds)
    .where({ status: 'pending' })
    .update({ locked_until: null, check_count: db.raw('greatest(check_count - 1, 0)') });
};

export const hasTopUpForTx = async (db: Knex, chainId: number, txHash: string): Promise<boolean> =>
  (await db(TOP_UP_VERIFICATIONS).where({ chain_id: chainId, tx_hash: txHash }).first('top_up_id')) !==
  undefined;
