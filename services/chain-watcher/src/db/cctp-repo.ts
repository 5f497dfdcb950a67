import type { Knex } from 'knex';
import { leaseDueRows } from './leases.js';
import { CCTP_PAYMENTS } from './migrations.js';

export type CctpFlowName = 'bridge_kit' | 'relayer';
export type CctpStep = 'burn' | 'attestation' | 'mint' | 'transfer' | 'done' | 'failed';

/** A cross-chain payment as the CCTP worker follows it. */
export interface CctpPaymentRecord {
  paymentId: string;
  merchantId: string;
  flow: CctpFlowName;
  step: CctpStep;
  sourceChainId: number;
  destinationChainId: number | null;
  /** lower-case */
  burnTxHash: string;
  mintTxHash: string | null;
  fromAddress: string;
  expectedUnits: bigint;
  burnBlock: number | null;
  burnedUnits: bigint | null;
  messageNonce: string | null;
  paymentCreatedAt: Date;
  backoffStep: number;
}

interface CctpPaymentRow {
  payment_id: string;
  merchant_id: string;
  flow: CctpFlowName;
  step: CctpStep;
  source_chain_id: number;
  destination_chain_id: number | null;
  burn_tx_hash: string;
  mint_tx_hash: string | null;
  from_address: string;
  expected_units: string;
  burn_block: number | null;
  burned_units: string | null;
  message_nonce: string | null;
  payment_created_at: Date;
  backoff_step: number;
}

const toRecord = (row: CctpPaymentRow): CctpPaymentRecord => ({
  paymentId: row.payment_id,
  merchantId: row.merchant_id,
  flow: row.flow,
  step: row.step,
  sourceChainId: row.source_chain_id,
  destinationChainId: row.destination_chain_id,
  burnTxHash: row.burn_tx_hash,
  mintTxHash: row.mint_tx_hash,
  fromAddress: row.from_address,
  expectedUnits: BigInt(row.expected_units),
  burnBlock: row.burn_block,
  burnedUnits: row.burned_units === null ? null : BigInt(row.burned_units),
  messageNonce: row.message_nonce,
  paymentCreatedAt: row.payment_created_at,
  backoffStep: row.backoff_step,
});

export type NewCctpPayment = Pick<
  CctpPaymentRecord,
  | 'paymentId'
  | 'merchantId'
  | 'flow'
  | 'sourceChainId'
  | 'destinationChainId'
  | 'burnTxHash'
  | 'mintTxHash'
  | 'fromAddress'
  | 'expectedUnits'
  | 'paymentCreatedAt'
>;

/** Inserts once per payment; a redelivered payment.created finds the row and changes nothing. */
export const insertCctpPayment = async (trx: Knex.Transaction, p: NewCctpPayment): Promise<boolean> => {
  const rows = await trx(CCTP_PAYMENTS)
    .insert({
      payment_id: p.paymentId,
      merchant_id: p.merchantId,
      flow: p.flow,
      step: 'burn',
      source_chain_id: p.sourceChainId,
      destination_chain_id: p.destinationChainId,
      burn_tx_hash: p.burnTxHash,
      mint_tx_hash: p.mintTxHash,
      from_address: p.fromAddress,
      expected_units: p.expectedUnits.toString(),
      payment_created_at: p.paymentCreatedAt,
    })
    .onConflict('payment_id')
    .ignore()
    .returning('payment_id');
  return rows.length === 1;
};

export const leaseDueCctpPayments = async (db: Knex, limit: number, leaseMs: number) =>
  (
    await leaseDueRows<CctpPaymentRow>(db, {
      table: CCTP_PAYMENTS,
      key: 'payment_id',
      open: `step not in ('done', 'failed')`,
      alsoSet: 'check_count = check_count + 1',
      limit,
      leaseMs,
    })
  ).map(toRecord);

export const releaseCctpLeases = async (db: Knex, paymentIds: string[]): Promise<void> => {
  if (paymentIds.length === 0) return;
  await db(CCTP_PAYMENTS).whereIn('payment_id', paymentIds).update({ locked_until: null });
};

/** Look again later; the lease ends. */
export const rescheduleCctp = async (
  db: Knex,
  paymentId: string,
  r: { delayMs: number; backoffStep: number },
): Promise<void> => {
  await db(CCTP_PAYMENTS)
    .where({ payment_id: paymentId })
    .update({
      next_check_at: db.raw(`now() + (? * interval '1 millisecond')`, [r.delayMs]),
      backoff_step: r.backoffStep,
      locked_until: null,
      updated_at: db.fn.now(),
    });
};

/** Facts a step established; moves the payment to `to` only from `from` (a guarded transition). */
export const advanceCctp = async (
  trx: Knex.Transaction | Knex,
  paymentId: string,
  from: CctpStep,
  to: CctpStep,
  facts: Partial<{
    burnBlock: number;
    burnedUnits: bigint;
    messageNonce: string;
    messageHash: string;
    attestationStatus: string;
    mintTxHash: string;
    mintedUnits: bigint;
    mintBlock: number;
    failureReason: string;
    failureDetail: string;
  }> = {},
): Promise<boolean> => {
  const patch: Record<string, unknown> = {
    step: to,
    next_check_at: trx.fn.now(),
    backoff_step: 0,
    locked_until: null,
    updated_at: trx.fn.now(),
  };
  if (facts.burnBlock !== undefined) patch.burn_block = facts.burnBlock;
  if (facts.burnedUnits !== undefined) patch.burned_units = facts.burnedUnits.toString();
  if (facts.messageNonce !== undefined) patch.message_nonce = facts.messageNonce;
  if (facts.messageHash !== undefined) patch.message_hash = facts.messageHash;
  if (facts.attestationStatus !== undefined) patch.attestation_status = facts.attestationStatus;
  if (facts.mintTxHash !== undefined) patch.mint_tx_hash = facts.mintTxHash;
  if (facts.mintedUnits !== undefined) patch.minted_units = facts.mintedUnits.toString();
  if (facts.mintBlock !== undefined) patch.mint_block = facts.mintBlock;
  if (facts.failureReason !== undefined) patch.failure_reason = facts.failureReason;
  if (facts.failureDetail !== undefined) patch.failure_detail = facts.failureDetail;
  const n = await trx(CCTP_PAYMENTS).where({ payment_id: paymentId, step: from }).update(patch);
  return n === 1;
};

export const findCctpPayment = async (db: Knex, paymentId: string) => {
  const row = (await db(CCTP_PAYMENTS).where({ payment_id: paymentId }).first()) as
    CctpPaymentRow | undefined;
  return row ? toRecord(row) : undefined;
};
