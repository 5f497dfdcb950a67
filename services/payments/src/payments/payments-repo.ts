import type { Knex } from 'knex';
import type {
  Currency,
  IntegrationEvent,
  PaymentSortBy,
  Language,
  PaymentStatus,
  SortDirection,
} from '@stablepay/contracts';
import { OUTBOX_TABLE, preparedRaw } from '@stablepay/platform';
import type { PaymentRecord } from '../records.js';
import { PAYMENTS } from '../db/tables.js';
import { toPayment, type Row } from '../db/rows.js';
import { REFUTED_SQL } from '../db/received-money-migration.js';
import { merchantUnchangedSql } from '../merchants/merchant-cache.js';

type Db = Knex | Knex.Transaction;

export interface NewPaymentRow {
  id: string;
  merchant_id: string;
  tx_hash: string;
  amount: string;
  expected_amount: string | null;
  currency: Currency;
  status: PaymentStatus;
  from_address: string;
  to_address: string;
  source_chain: string;
  source_chain_id: number;
  destination_chain: string | null;
  destination_chain_id: number | null;
  is_cross_chain: boolean;
  bridge_provider: string | null;
  burn_tx_hash: string | null;
  mint_tx_hash: string | null;
  fee_quote: string | null;
  customer_email: string;
  customer_language?: Language | null;
  reference: string | null;
  description: string | null;
  metadata: string;
  /** gasless payments only (the columns' defaults describe a transfer) */
  funding?: 'authorization';
  signed_authorization?: string;
  authorization_nonce?: string;
  network_fee?: string;
  cctp_fee?: string;
  fee_bearer?: string;
}

/**
 * Inserts the payment unless its tx_hash is already recorded; undefined means it was. A concurrent
 * insert of the same hash waits for the other transaction and then yields undefined too, so there
 * is never a window between a check and an insert.
 */
export const insertPaymentIfNew = async (db: Db, row: NewPaymentRow): Promise<PaymentRecord | undefined> => {
  // The unique keys an insert can meet are payments_tx_hash_key and, for a gasless payment,
  // payments_authorization_key (the id is new, the session is linked afterwards): their partial
  // predicates cannot be named in ON CONFLICT by knex.
  const rows = (await db(PAYMENTS).insert(row).onConflict().ignore().returning('*')) as Row[];
  return rows[0] ? toPayment(rows[0]) : undefined;
};

/** Which of a transaction's payments owns it: a completed one first, then the earliest. */
const OWNER_FIRST_SQL = `status = 'completed' desc, created_at`;

/** What one report's statement did: the payment it inserted, or another merchant's completed one. */
export interface ReportOutcome {
  inserted?: PaymentRecord;
  /** The completed payment of another merchant that this transaction already paid: nothing was written. */
  completedElsewhere?: PaymentRecord;
  /** The merchant's row is no longer the version the report was judged on: nothing was written. */
  merchantChanged?: true;
}

/** The insert text per set of columns (and guard): built once instead of by the query builder on every report. */
const insertTexts = new Map<string, string>();
const reportInsert = (columns: readonly string[], guarded: boolean): string => {
  const key = `${guarded}:${columns.join(',')}`;
  let text = insertTexts.get(key);
  if (text === undefined) {
    text = `insert into ${PAYMENTS} (${columns.map((c) => `"${c}"`).join(', ')})
              select ${columns.map(() => '?').join(', ')} where not exists (select 1 from spent)
              ${guarded ? `and ${merchantUnchangedSql}` : ''}
              on conflict do nothing returning *`;
    insertTexts.set(key, text);
  }
  return text;
};

/**
 * A report's whole write in one statement, no transaction to open: the transaction's completed
 * payment of another merchant (findPaymentByTxHash's first, when completed and not this merchant's)
 * stops it; else the payment and the outbox row of its event are both written, or neither when the
 * tx_hash is already recorded for this merchant (an empty outcome). The check and the insert share
 * one snapshot. With `merchantVersion`, the report was judged on a remembered reading of the
 * merchant: nothing is written unless the merchant's row is still that version (`merchantChanged`).
 * The event is built from the row as it will be stored; its `data.createdAt` is set by the
 * statement from the row's own created_at (the database's clock, as for every other row), in the
 * form toISOString() gives.
 */
export const insertPaymentWithEvent = async (
  db: Db,
  row: NewPaymentRow,
  eventFor: (payment: PaymentRecord) => IntegrationEvent,
  merchantVersion?: string,
): Promise<ReportOutcome> => {
  const event = eventFor(toPayment({ ...row, created_at: new Date(), updated_at: new Date() }));
  const values = row as unknown as Record<string, Knex.Value | undefined>;
  const columns = Object.keys(values).filter((c) => values[c] !== undefined);
  const guarded = merchantVersion !== undefined;
  const guard = guarded ? [row.merchant_id, merchantVersion] : [];
  const result = await preparedRaw<{
    rows: Array<Row & { spent_elsewhere: boolean; merchant_changed: boolean }>;
  }>(
    db,
    `with spent as (
            select * from (select * from ${PAYMENTS} where tx_hash = ? and not ${REFUTED_SQL}
                            order by ${OWNER_FIRST_SQL} limit 1) earliest
             where earliest.merchant_id <> ? and earliest.status = 'completed'),
          p as (${reportInsert(columns, guarded)}),
          o as (insert into ${OUTBOX_TABLE} (id, type, envelope)
                select ?, ?, jsonb_set(?::jsonb, '{data,createdAt}',
                  to_jsonb(to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
                  from p)
     select false as spent_elsewhere, false as merchant_changed, p.* from p
     union all select true, false, spent.* from spent
     ${guarded ? `union all select false, true, (null::${PAYMENTS}).* where not ${merchantUnchangedSql}` : ''}`,
    [
      row.tx_hash,
      row.merchant_id,
      ...columns.map((c) => values[c]!),
      ...guard,
      event.id,
      event.type,
      JSON.stringify(event),
      ...guard,
    ],
  );
  if (result.rows.some((r) => r.merchant_changed)) return { merchantChanged: true };
  const found = result.rows[0];
  if (!found) return {};
  return found.spent_elsewhere ? { completedElsewhere: toPayment(found) } : { inserted: toPayment(found) };
};

/**
 * The payment a transaction stands for: of `merchantId` when given, never one the chain refuted
 * (see REFUTED_SQL), a completed one before others.
 */
export const findPaymentByTxHash = async (
  db: Db,
  txHash: string,
  merchantId?: string,
): Promise<PaymentRecord | undefined> => {
  const q = db(PAYMENTS).where({ tx_hash: txHash.toLowerCase() }).whereRaw(`not ${REFUTED_SQL}`);
  if (merchantId !== undefined) q.andWhere({ merchant_id: merchantId });
  const row = (await q.orderByRaw(OWNER_FIRST_SQL).first()) as Row | undefined;
  return row ? toPayment(row) : undefined;
};

/** With `merchantId`, another merchant's payment is simply not found. */
export const findPayment = async (
  db: Db,
  id: string,
  merchantId?: string,
): Promise<PaymentRecord | undefined> => {
  const q = db(PAYMENTS).where({ id });
  if (merchantId !== undefined) q.andWhere({ merchant_id: merchantId });
  const row = (await q.first()) as Row | undefined;
  return row ? toPayment(row) : undefined;
};

/** The customer a payment is recorded for (e-mail, language, reference, description, metadata). */
export const setPaymentCustomer = async (
  db: Db,
  paymentId: string,
  c: Pick<PaymentRecord, 'customerEmail' | 'customerLanguage' | 'reference' | 'description' | 'metadata'>,
): Promise<void> => {
  await db(PAYMENTS)
    .where({ id: paymentId })
    .update({
      customer_email: c.customerEmail,
      customer_language: c.customerLanguage,
      reference: c.reference,
      description: c.description,
      metadata: JSON.stringify(c.metadata),
    });
};

export const setPaymentSession = async (db: Db, paymentId: string, sessionId: string): Promise<void> => {
  await db(PAYMENTS).where({ id: paymentId }).update({ session_id: sessionId });
};

/**
 * Records on-chain facts of a cross-chain payment (its burn, its mint) without changing its status;
 * with `unlessKnown`, only while that column is still empty.
 */
export const recordPaymentFacts = async (
  db: Db,
  id: string,
  patch: Record<string, unknown>,
  opts: { unlessKnown?: string } = {},
): Promise<boolean> => {
  const q = db(PAYMENTS).where({ id, is_cross_chain: true });
  if (opts.unlessKnown) q.whereNull(opts.unlessKnown);
  return (await q.update({ ...patch, updated_at: db.fn.now() })) === 1;
};

export interface PaymentQuery {
  merchantId: string;
  statuses?: readonly PaymentStatus[];
  currency?: Currency;
  createdAtLeast?: Date;
  createdAtMost?: Date;
  createdBefore?: Date;
  createdAfter?: Date;
  search?: string;
  sortBy: PaymentSortBy;
  sortDirection: SortDirection;
  limit: number;
  offset: number;
}

/** Sort keys map to columns through this table only; nothing from the query string reaches SQL. */
const SORT_COLUMNS: Record<PaymentSortBy, string> = {
  created_at: 'created_at',
  amount: 'amount',
  updated_at: 'updated_at',
  status: 'status',
};

/** `%` and `_` typed by the user match themselves, not "anything". */
export const likePattern = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const listPayments = async (
  db: Db,
  q: PaymentQuery,
): Promise<{ payments: PaymentRecord[]; total: number }> => {
  const base = db(PAYMENTS).where({ merchant_id: q.merchantId });
  if (q.statuses) base.whereIn('status', [...q.statuses]);
  if (q.currency) base.andWhere({ currency: q.currency });
  if (q.createdAtLeast) base.andWhere('created_at', '>=', q.createdAtLeast);
  if (q.createdAtMost) base.andWhere('created_at', '<=', q.createdAtMost);
  if (q.createdBefore) base.andWhere('created_at', '<', q.createdBefore);
  if (q.createdAfter) base.andWhere('created_at', '>', q.createdAfter);
  if (q.search) {
    const p = likePattern(q.search);
    base.andWhereRaw(
      '(tx_hash ilike ? or from_address ilike ? or customer_email ilike ? or reference ilike ?)',
      [p, p, p, p],
    );
  }
  const column = SORT_COLUMNS[q.sortBy];
  const [countRow] = (await base.clone().count<Row[]>('* as count')) as Row[];
  const rows = (await base
    .clone()
    .select('*')
    .orderBy([
      { column, order: q.sortDirection },
      { column: 'id', order: q.sortDirection },
    ])
    .limit(q.limit)
    .offset(q.offset)) as Row[];
  return { payments: rows.map(toPayment), total: Number(countRow?.count ?? 0) };
};
