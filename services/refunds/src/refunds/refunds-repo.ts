import { currentContext, type MadeByKey, type Db } from '@stablepay/platform';
import type { Currency, RefundReason, RefundStatus } from '@stablepay/contracts';
import { REFUNDS } from '../db/migrations.js';
import { column, firstOf, rowMapper, sumToDecimal, type Row } from '../db/rows.js';
import type { RefundRecord } from './records.js';
import { COMMITTED_REFUND_STATUSES } from './rules.js';

export const toRefund = rowMapper<RefundRecord>({
  id: column.text,
  merchantId: column.text,
  paymentId: column.text,
  amount: column.decimal,
  currency: column.oneOf(),
  status: column.oneOf(),
  destinationAddress: column.text,
  blockchain: column.oneOf(),
  reason: column.oneOf(),
  note: column.str,
  txHash: column.str,
  failureReason: column.str,
  waitingForFunds: Boolean,
  createdAt: column.date,
  updatedAt: column.date,
  completedAt: column.dateOrNull,
});

export interface NewRefundRow {
  id: string;
  merchant_id: string;
  payment_id: string;
  amount: string;
  currency: Currency;
  destination_address: string;
  blockchain: string;
  reason: RefundReason;
  note: string | null;
  request_key?: string | null;
  request_fingerprint?: string | null;
}

export const insertRefund = async (db: Db, row: NewRefundRow): Promise<RefundRecord> => {
  const [inserted] = (await db(REFUNDS)
    .insert({ ...row, status: 'pending', correlation_id: currentContext().correlationId ?? null })
    .returning('*')) as Row[];
  return toRefund(inserted!);
};

/** The refund a merchant's request with this Idempotency-Key made, if any, with that request's fingerprint. */
export const findRefundByRequestKey = async (
  db: Db,
  merchantId: string,
  requestKey: string,
): Promise<MadeByKey<RefundRecord> | undefined> =>
  firstOf(db(REFUNDS).where({ merchant_id: merchantId, request_key: requestKey }), (row) => ({
    made: toRefund(row),
    fingerprint: (row.request_fingerprint as string | null) ?? null,
  }));

/** With `merchantId`, another merchant's refund is simply not found. */
export const findRefund = async (
  db: Db,
  id: string,
  merchantId?: string,
): Promise<RefundRecord | undefined> => {
  const q = db(REFUNDS).where({ id });
  if (merchantId !== undefined) q.andWhere({ merchant_id: merchantId });
  return firstOf(q, toRefund);
};

export interface RefundQuery {
  merchantId: string;
  status?: RefundStatus;
  currency?: Currency;
  search?: string;
  limit: number;
  offset: number;
}

/** `%` and `_` typed by the user match themselves, not "anything". */
export const likePattern = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const listRefunds = async (
  db: Db,
  q: RefundQuery,
): Promise<{ refunds: RefundRecord[]; total: number }> => {
  const base = db(REFUNDS).where({ merchant_id: q.merchantId });
  if (q.status) base.andWhere({ status: q.status });
  if (q.currency) base.andWhere({ currency: q.currency });
  if (q.search) {
    const p = likePattern(q.search);
    base.andWhereRaw('(payment_id::text ilike ? or destination_address ilike ? or tx_hash ilike ?)', [
      p,
      p,
      p,
    ]);
  }
  const [countRow] = (await base.clone().count<Row[]>('* as count')) as Row[];
  const rows = (await base
    .clone()
    .select('*')
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(q.limit)
    .offset(q.offset)) as Row[];
  return { refunds: rows.map(toRefund), total: Number(countRow?.count ?? 0) };
};

/** What refunds already claim of a payment: pending, processing and completed ones. */
export const committedRefundTotal = async (db: Db, paymentId: string): Promise<string> => {
  const [row] = (await db(REFUNDS)
    .where({ payment_id: paymentId })
    .whereIn('status', [...COMMITTED_REFUND_STATUSES])
    .sum<Row[]>('amount as total')) as Row[];
  return sumToDecimal(row?.total);
};
