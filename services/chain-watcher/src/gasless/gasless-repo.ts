import type { Knex } from 'knex';
import type { BlockchainName, Currency, NetworkFeeBearer } from '@stablepay/contracts';
import { GASLESS_PAYMENTS } from '../migrations/tables.js';
import { insertWorkRowOnce } from '../work-rows/insert-once.js';
import { leaseDueRows } from '../work-rows/lease-due-rows.js';
import {
  releaseRowLeases,
  renewRowLeases,
  rescheduleRow,
  type WorkTable,
} from '../work-rows/row-schedule.js';
import type { SignedAuthorization } from './submission.js';

/**
 * submit: the relay submits it; handed_over: its transaction is found and verified as any payment's
 * (cross-chain: the burn is followed as a CCTP payment). Cross-chain, between the two: burn, the
 * relay burns what it received to the merchant wallet; mint, the relay mints it if nobody else does.
 */
export type GaslessStep = 'submit' | 'burn' | 'mint' | 'handed_over' | 'rejected';

/** A gasless payment as the submission worker sees it. */
export interface GaslessPaymentRecord {
  paymentId: string;
  merchantId: string;
  chainId: number;
  sourceChain: BlockchainName;
  token: Currency;
  /** the customer's signed authorization, exactly as submitted */
  authorization: SignedAuthorization;
  expectedUnits: bigint;
  feeBearer: NetworkFeeBearer;
  networkFeeUnits: bigint;
  /** cross-chain only: the merchant's chain and Circle's fee on the burn (the quote's cctpFee) */
  destinationChainId: number | null;
  cctpFeeUnits: bigint;
  /** the merchant wallet the payment pays (cross-chain: on the destination chain) */
  merchantAddress: string | null;
  sessionCreatedAt: Date | null;
  paymentCreatedAt: Date;
  step: GaslessStep;
  searchFromBlock: number | null;
  relayedTxHash: string | null;
  reservedWei: bigint;
  budgetDay: string;
  /** cross-chain, once the submission is verified: what the relay burns and the merchant must receive */
  burnUnits: bigint | null;
  merchantReceivesUnits: bigint | null;
  burnTxHash: string | null;
  backoffStep: number;
  correlationId: string | null;
}

interface GaslessPaymentRow {
  payment_id: string;
  merchant_id: string;
  chain_id: number;
  source_chain: BlockchainName;
  token: Currency;
  from_address: string;
  to_address: string;
  value: string;
  valid_after: string;
  valid_before: string;
  nonce: string;
  signature: string;
  expected_units: string;
  fee_bearer: NetworkFeeBearer;
  network_fee_units: string;
  destination_chain_id: number | null;
  cctp_fee_units: string;
  merchant_address: string | null;
  session_created_at: Date | null;
  payment_created_at: Date;
  step: GaslessStep;
  search_from_block: string | null;
  relayed_tx_hash: string | null;
  reserved_wei: string;
  budget_day: string;
  burn_units: string | null;
  merchant_receives_units: string | null;
  burn_tx_hash: string | null;
  backoff_step: number;
  correlation_id: string | null;
}

const toRecord = (row: GaslessPaymentRow): GaslessPaymentRecord => ({
  paymentId: row.payment_id,
  merchantId: row.merchant_id,
  chainId: row.chain_id,
  sourceChain: row.source_chain,
  token: row.token,
  authorization: {
    from: row.from_address,
    to: row.to_address,
    value: BigInt(row.value),
    validAfter: BigInt(row.valid_after),
    validBefore: BigInt(row.valid_before),
    nonce: row.nonce,
    signature: row.signature,
  },
  expectedUnits: BigInt(row.expected_units),
  feeBearer: row.fee_bearer,
  networkFeeUnits: BigInt(row.network_fee_units),
  destinationChainId: row.destination_chain_id,
  cctpFeeUnits: BigInt(row.cctp_fee_units),
  merchantAddress: row.merchant_address,
  sessionCreatedAt: row.session_created_at,
  paymentCreatedAt: row.payment_created_at,
  step: row.step,
  searchFromBlock: row.search_from_block === null ? null : Number(row.search_from_block),
  relayedTxHash: row.relayed_tx_hash,
  reservedWei: BigInt(row.reserved_wei),
  budgetDay: row.budget_day,
  burnUnits: row.burn_units === null ? null : BigInt(row.burn_units),
  merchantReceivesUnits: row.merchant_receives_units === null ? null : BigInt(row.merchant_receives_units),
  burnTxHash: row.burn_tx_hash,
  backoffStep: row.backoff_step,
  correlationId: row.correlation_id,
});

export type NewGaslessPayment = Omit<
  GaslessPaymentRecord,
  | 'step'
  | 'searchFromBlock'
  | 'relayedTxHash'
  | 'backoffStep'
  | 'correlationId'
  | 'burnUnits'
  | 'merchantReceivesUnits'
  | 'burnTxHash'
>;

/** Inserts once per payment; a redelivered event finds the row and changes nothing. */
export const insertGaslessPayment = (trx: Knex.Transaction, p: NewGaslessPayment): Promise<boolean> =>
  insertWorkRowOnce(
    trx,
    GASLESS_PAYMENTS,
    {
      payment_id: p.paymentId,
      merchant_id: p.merchantId,
      chain_id: p.chainId,
      source_chain: p.sourceChain,
      token: p.token,
      from_address: p.authorization.from,
      to_address: p.authorization.to,
      value: p.authorization.value.toString(),
      valid_after: p.authorization.validAfter.toString(),
      valid_before: p.authorization.validBefore.toString(),
      nonce: p.authorization.nonce.toLowerCase(),
      signature: p.authorization.signature,
      expected_units: p.expectedUnits.toString(),
      fee_bearer: p.feeBearer,
      network_fee_units: p.networkFeeUnits.toString(),
      destination_chain_id: p.destinationChainId,
      cctp_fee_units: p.cctpFeeUnits.toString(),
      merchant_address: p.merchantAddress,
      session_created_at: p.sessionCreatedAt,
      payment_created_at: p.paymentCreatedAt,
      reserved_wei: p.reservedWei.toString(),
      budget_day: p.budgetDay,
    },
    'payment_id',
  );

export const leaseDueGaslessPayments = async (db: Knex, limit: number, leaseMs: number) =>
  (
    await leaseDueRows<GaslessPaymentRow>(db, {
      table: GASLESS_PAYMENTS,
      key: 'payment_id',
      open: `step in ('submit', 'burn', 'mint')`,
      alsoSet: 'check_count = check_count + 1',
      limit,
      leaseMs,
    })
  ).map(toRecord);

const WORK: WorkTable = { table: GASLESS_PAYMENTS, key: 'payment_id' };

export const releaseGaslessLeases = (db: Knex, paymentIds: string[]): Promise<void> =>
  releaseRowLeases(db, WORK, paymentIds);

export const renewGaslessLeases = (db: Knex, paymentIds: string[], leaseMs: number): Promise<void> =>
  renewRowLeases(db, WORK, paymentIds, leaseMs);

/** Look again later; the lease ends. */
export const rescheduleGasless = (db: Knex, paymentId: string, r: { delayMs: number; backoffStep: number }) =>
  rescheduleRow(db, WORK, paymentId, r);

/** Where the search for the authorization's log starts, remembered the first time it is known. */
export const noteSearchFrom = async (db: Knex, paymentId: string, block: number): Promise<void> => {
  await db(GASLESS_PAYMENTS)
    .where({ payment_id: paymentId })
    .whereNull('search_from_block')
    .update({ search_from_block: block });
};

/** The payment's row locked for the rest of the caller's transaction; undefined once gone. */
export const lockGaslessPayment = async (trx: Knex.Transaction, paymentId: string) => {
  const row = (await trx(GASLESS_PAYMENTS).where({ payment_id: paymentId }).forUpdate().first()) as
    GaslessPaymentRow | undefined;
  return row ? toRecord(row) : undefined;
};

export const findGaslessPayment = async (db: Knex, paymentId: string) => {
  const row = (await db(GASLESS_PAYMENTS).where({ payment_id: paymentId }).first()) as
    GaslessPaymentRow | undefined;
  return row ? toRecord(row) : undefined;
};

/**
 * Records the first relay transaction a node accepted; true only for the call that recorded it, so
 * that chain.payment.relayed is published once whatever replicas and replacements follow.
 */
export const noteRelayed = async (trx: Knex.Transaction, paymentId: string, txHash: string) =>
  (await trx(GASLESS_PAYMENTS)
    .where({ payment_id: paymentId })
    .whereNull('relayed_tx_hash')
    .update({ relayed_tx_hash: txHash, updated_at: trx.fn.now() })) === 1;

/** Leaves `submit` for good (a guarded transition): false when another worker did first. */
export const finishSubmission = async (
  trx: Knex.Transaction,
  paymentId: string,
  to: Exclude<GaslessStep, 'submit'>,
  facts: { usedTxHash?: string; failureDetail?: string; gasSpentWei: bigint },
): Promise<boolean> =>
  (await trx(GASLESS_PAYMENTS)
    .where({ payment_id: paymentId, step: 'submit' })
    .update({
      step: to,
      used_tx_hash: facts.usedTxHash ?? null,
      failure_detail: facts.failureDetail ?? null,
      gas_spent_wei: facts.gasSpentWei.toString(),
      locked_until: null,
      updated_at: trx.fn.now(),
    })) === 1;

/** Cross-chain facts each step establishes, in its columns. */
export type GaslessCrossChainFacts = Partial<{
  burnUnits: bigint;
  merchantReceivesUnits: bigint;
  burnTxHash: string;
}>;

/** One step on (a guarded transition): false when another worker moved the payment first. */
export const moveGasless = async (
  trx: Knex.Transaction,
  paymentId: string,
  from: GaslessStep,
  to: GaslessStep,
  facts: GaslessCrossChainFacts = {},
): Promise<boolean> =>
  (await trx(GASLESS_PAYMENTS)
    .where({ payment_id: paymentId, step: from })
    .update({
      step: to,
      ...(facts.burnUnits !== undefined ? { burn_units: facts.burnUnits.toString() } : {}),
      ...(facts.merchantReceivesUnits !== undefined
        ? { merchant_receives_units: facts.merchantReceivesUnits.toString() }
        : {}),
      ...(facts.burnTxHash !== undefined ? { burn_tx_hash: facts.burnTxHash } : {}),
      backoff_step: 0,
      next_check_at: trx.fn.now(),
      locked_until: null,
      updated_at: trx.fn.now(),
    })) === 1;
