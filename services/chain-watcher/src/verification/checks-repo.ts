import type { Knex } from 'knex';
import type { BlockchainName, ChainPaymentRejectReason, Currency } from '@stablepay/contracts';
import { leaseDueRows } from '../work-rows/lease-due-rows.js';
import { renewRowLeases } from '../work-rows/row-schedule.js';
import { TOP_UP_VERIFICATIONS, VERIFICATIONS } from '../migrations/tables.js';

/*
 * Reported transactions checked until a verdict, one table each: a payment's transaction
 * (verifications, by payment) and a top-up's (top_up_verifications, by top-up). Both are leased,
 * backed off and decided once by the same statements.
 */

export interface CheckTable {
  table: string;
  key: 'payment_id' | 'top_up_id';
}

export const PAYMENT_CHECKS: CheckTable = { table: VERIFICATIONS, key: 'payment_id' };
export const TOP_UP_CHECKS: CheckTable = { table: TOP_UP_VERIFICATIONS, key: 'top_up_id' };

export type VerificationStatus = 'pending' | 'verified' | 'rejected';

/** The columns both tables share, as stored. */
export interface CheckRow {
  merchant_id: string;
  tx_hash: string;
  chain_id: number;
  source_chain: string;
  token: string;
  from_address: string;
  to_address: string;
  session_created_at: Date | null;
  status: VerificationStatus;
  block_number: string | null;
  block_hash: string | null;
  backoff_step: number;
  check_count: number;
  correlation_id: string | null;
}

export const checkFieldsOf = (row: CheckRow) => ({
  merchantId: row.merchant_id,
  txHash: row.tx_hash,
  chainId: row.chain_id,
  sourceChain: row.source_chain as BlockchainName,
  token: row.token as Currency,
  fromAddress: row.from_address,
  toAddress: row.to_address,
  sessionCreatedAt: row.session_created_at,
  status: row.status,
  blockNumber: row.block_number === null ? null : Number(row.block_number),
  blockHash: row.block_hash,
  backoffStep: row.backoff_step,
  checkCount: row.check_count,
  correlationId: row.correlation_id,
});

/** Due pending rows, leased to the caller (see leaseDueRows); each lease counts as a check. */
export const leaseDueChecks = <Row>(db: Knex, checks: CheckTable, limit: number, leaseMs: number) =>
  leaseDueRows<Row>(db, {
    table: checks.table,
    key: checks.key,
    open: "status = 'pending'",
    alsoSet: 'check_count = check_count + 1',
    limit,
    leaseMs,
  });

/** Extends the leases of the rows a worker's batch still holds (see renewRowLeases). */
export const renewCheckLeases = (db: Knex, checks: CheckTable, ids: string[], leaseMs: number) =>
  renewRowLeases(db, checks, ids, leaseMs);

/** Gives leased rows back untouched (shutdown), keeping their schedule. */
export const releaseCheckLeases = async (db: Knex, checks: CheckTable, ids: string[]): Promise<void> => {
  await db(checks.table)
    .whereIn(checks.key, ids)
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
 * The one transition out of `pending`, for many rows in one statement, guarded in the UPDATE itself:
 * of two workers deciding the same row, exactly one gets it back and publishes; the other changes
 * nothing. Returns the ids this call moved out of `pending`.
 */
export const decideChecks = async (
  trx: Knex.Transaction,
  checks: CheckTable,
  decisions: ReadonlyArray<{ id: string; decision: Decision }>,
): Promise<Set<string>> => {
  if (decisions.length === 0) return new Set();
  const input = decisions.map(({ id, decision: d }) => ({
    id,
    status: d.status,
    reason: d.reason,
    received_units: d.receivedUnits === null ? null : d.receivedUnits.toString(),
    detail: d.detail,
    block_number: d.blockNumber,
    block_hash: d.blockHash,
  }));
  const result = (await trx.raw(
    `update ${checks.table} v
        set status = d.status, reason = d.reason, received_units = d.received_units::numeric,
            detail = d.detail, block_number = d.block_number, block_hash = d.block_hash,
            locked_until = null, last_checked_at = now(), decided_at = now(), updated_at = now()
       from jsonb_to_recordset(?::jsonb) as d(id uuid, status text, reason text,
              received_units text, detail text, block_number bigint, block_hash text)
      where v.${checks.key} = d.id and v.status = 'pending'
      returning v.${checks.key} as id`,
    [JSON.stringify(input)],
  )) as { rows: Array<{ id: string }> };
  return new Set(result.rows.map((r) => r.id));
};

export interface Reschedule {
  delayMs: number;
  backoffStep: number;
  blockNumber: number | null;
  blockHash: string | null;
  lastError: string | null;
}

/** Releases the leases of rows that stay pending and says when to look at each again, in one statement. */
export const rescheduleChecks = async (
  db: Knex,
  checks: CheckTable,
  rows: ReadonlyArray<{ id: string } & Reschedule>,
): Promise<void> => {
  if (rows.length === 0) return;
  const input = rows.map((r) => ({
    id: r.id,
    delay_ms: Math.max(0, Math.round(r.delayMs)),
    backoff_step: r.backoffStep,
    block_number: r.blockNumber,
    block_hash: r.blockHash,
    last_error: r.lastError,
  }));
  await db.raw(
    `update ${checks.table} v
        set next_check_at = now() + (r.delay_ms * interval '1 millisecond'), locked_until = null,
            backoff_step = r.backoff_step, block_number = r.block_number, block_hash = r.block_hash,
            last_error = r.last_error, last_checked_at = now(), updated_at = now()
       from jsonb_to_recordset(?::jsonb) as r(id uuid, delay_ms bigint, backoff_step int,
              block_number bigint, block_hash text, last_error text)
      where v.${checks.key} = r.id and v.status = 'pending'`,
    [JSON.stringify(input)],
  );
};
