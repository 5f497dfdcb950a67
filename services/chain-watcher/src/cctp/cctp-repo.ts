import type { Knex } from 'knex';
import { leaseDueRows } from '../work-rows/lease-due-rows.js';
import {
  releaseRowLeases,
  renewRowLeases,
  rescheduleRow,
  type WorkTable,
} from '../work-rows/row-schedule.js';
import { CCTP_PAYMENTS } from '../migrations/tables.js';
import { asColumns, insertWorkRowOnce } from '../work-rows/insert-once.js';

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
  /** Relayer flow: keccak256 of the message the burn emitted (the v1 API's key) */
  messageHash: string | null;
  attestationStatus: string | null;
  /** Relayer flow: what the merchant receives, from the fee quote */
  merchantReceivesUnits: bigint | null;
  relayAddress: string | null;
  merchantAddress: string | null;
  attestationSince: Date | null;
  /** The attested message and its attestation, as the API returned them last */
  attestedMessage: string | null;
  attestation: string | null;
  mintSearchFrom: number | null;
  mintedUnits: bigint | null;
  mintBlock: number | null;
  transferTxHash: string | null;
  /** of the message that announced the payment */
  correlationId: string | null;
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
  message_hash: string | null;
  attestation_status: string | null;
  merchant_receives_units: string | null;
  relay_address: string | null;
  merchant_address: string | null;
  attestation_since: Date | null;
  attested_message: string | null;
  attestation: string | null;
  mint_search_from: string | null;
  minted_units: string | null;
  mint_block: number | null;
  transfer_tx_hash: string | null;
  correlation_id: string | null;
}

const big = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

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
  burnedUnits: big(row.burned_units),
  messageNonce: row.message_nonce,
  paymentCreatedAt: row.payment_created_at,
  backoffStep: row.backoff_step,
  messageHash: row.message_hash,
  attestationStatus: row.attestation_status,
  merchantReceivesUnits: big(row.merchant_receives_units),
  relayAddress: row.relay_address,
  merchantAddress: row.merchant_address,
  attestationSince: row.attestation_since,
  attestedMessage: row.attested_message,
  attestation: row.attestation,
  mintSearchFrom: row.mint_search_from === null ? null : Number(row.mint_search_from),
  mintedUnits: big(row.minted_units),
  mintBlock: row.mint_block,
  transferTxHash: row.transfer_tx_hash,
  correlationId: row.correlation_id,
});

const NEW_CCTP_PAYMENT_FIELDS = [
  'paymentId',
  'merchantId',
  'flow',
  'sourceChainId',
  'destinationChainId',
  'burnTxHash',
  'mintTxHash',
  'fromAddress',
  'expectedUnits',
  'paymentCreatedAt',
] as const;

export type NewCctpPayment = Pick<CctpPaymentRecord, (typeof NEW_CCTP_PAYMENT_FIELDS)[number]> &
  Partial<Pick<CctpPaymentRecord, 'merchantReceivesUnits'>>;

/** Inserts once per payment; a redelivered payment.created finds the row and changes nothing. */
export const insertCctpPayment = async (trx: Knex.Transaction, p: NewCctpPayment): Promise<boolean> => {
  const row = asColumns(p, [...NEW_CCTP_PAYMENT_FIELDS, 'merchantReceivesUnits']);
  return insertWorkRowOnce(trx, CCTP_PAYMENTS, { ...row, step: 'burn' }, 'payment_id');
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

const WORK: WorkTable = { table: CCTP_PAYMENTS, key: 'payment_id' };

export const releaseCctpLeases = (db: Knex, paymentIds: string[]): Promise<void> =>
  releaseRowLeases(db, WORK, paymentIds);

export const renewCctpLeases = (db: Knex, paymentIds: string[], leaseMs: number): Promise<void> =>
  renewRowLeases(db, WORK, paymentIds, leaseMs);

/** Look again later; the lease ends. */
export const rescheduleCctp = (db: Knex, paymentId: string, r: { delayMs: number; backoffStep: number }) =>
  rescheduleRow(db, WORK, paymentId, r);

/** What a step may establish about a payment; each fact has its column. */
export type CctpFacts = Partial<{
  destinationChainId: number;
  burnBlock: number;
  burnedUnits: bigint;
  messageNonce: string;
  messageHash: string;
  attestationStatus: string;
  relayAddress: string;
  merchantAddress: string;
  attestationSince: Date;
  attestedMessage: string;
  attestation: string;
  mintSearchFrom: number;
  mintTxHash: string;
  mintedUnits: bigint;
  mintBlock: number;
  transferTxHash: string;
  transferBlock: number;
  failureReason: string;
  failureDetail: string;
}>;

const COLUMNS: { [K in keyof Required<CctpFacts>]: string } = {
  destinationChainId: 'destination_chain_id',
  burnBlock: 'burn_block',
  burnedUnits: 'burned_units',
  messageNonce: 'message_nonce',
  messageHash: 'message_hash',
  attestationStatus: 'attestation_status',
  relayAddress: 'relay_address',
  merchantAddress: 'merchant_address',
  attestationSince: 'attestation_since',
  attestedMessage: 'attested_message',
  attestation: 'attestation',
  mintSearchFrom: 'mint_search_from',
  mintTxHash: 'mint_tx_hash',
  mintedUnits: 'minted_units',
  mintBlock: 'mint_block',
  transferTxHash: 'transfer_tx_hash',
  transferBlock: 'transfer_block',
  failureReason: 'failure_reason',
  failureDetail: 'failure_detail',
};

const columnsOf = (facts: CctpFacts): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(facts)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [
        COLUMNS[key as keyof CctpFacts],
        typeof value === 'bigint' ? value.toString() : value,
      ]),
  );

/**
 * Look at an open payment now, whatever its back-off: something outside the CCTP worker (the gasless
 * relay's own mint) has just changed what the chain holds for it. A lease, if any, is left alone.
 */
export const wakeCctpPayment = async (trx: Knex.Transaction | Knex, paymentId: string): Promise<void> => {
  await trx(CCTP_PAYMENTS)
    .where({ payment_id: paymentId })
    .whereNotIn('step', ['done', 'failed'])
    .update({ next_check_at: trx.fn.now(), backoff_step: 0 });
};

/** Facts a step established; moves the payment to `to` only from `from` (a guarded transition). */
export const advanceCctp = async (
  trx: Knex.Transaction | Knex,
  paymentId: string,
  from: CctpStep,
  to: CctpStep,
  facts: CctpFacts = {},
): Promise<boolean> => {
  const patch: Record<string, unknown> = {
    ...columnsOf(facts),
    step: to,
    next_check_at: trx.fn.now(),
    backoff_step: 0,
    locked_until: null,
    updated_at: trx.fn.now(),
  };
  const n = await trx(CCTP_PAYMENTS).where({ payment_id: paymentId, step: from }).update(patch);
  return n === 1;
};

/** Facts learned without leaving `step` (a new attestation status, a re-attested message). */
export const noteCctpFacts = async (
  trx: Knex.Transaction | Knex,
  paymentId: string,
  step: CctpStep,
  facts: CctpFacts,
): Promise<boolean> => {
  const n = await trx(CCTP_PAYMENTS)
    .where({ payment_id: paymentId, step })
    .update({ ...columnsOf(facts), updated_at: trx.fn.now() });
  return n === 1;
};

/** A new attestation status while waiting for the signature; false when it is not new (or moved on). */
export const noteAttestationStatus = async (
  trx: Knex.Transaction | Knex,
  paymentId: string,
  status: string,
): Promise<boolean> => {
  const n = await trx(CCTP_PAYMENTS)
    .where({ payment_id: paymentId, step: 'attestation' })
    .whereRaw('attestation_status is distinct from ?', [status])
    .update({ attestation_status: status, updated_at: trx.fn.now() });
  return n === 1;
};

/** The payment's row locked for the rest of the caller's transaction; undefined once gone. */
export const lockCctpPayment = async (trx: Knex.Transaction, paymentId: string) => {
  const row = (await trx(CCTP_PAYMENTS).where({ payment_id: paymentId }).forUpdate().first()) as
    CctpPaymentRow | undefined;
  return row ? toRecord(row) : undefined;
};

export const findCctpPayment = async (db: Knex, paymentId: string) => {
  const row = (await db(CCTP_PAYMENTS).where({ payment_id: paymentId }).first()) as
    CctpPaymentRow | undefined;
  return row ? toRecord(row) : undefined;
};
