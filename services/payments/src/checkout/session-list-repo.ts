import type { Knex } from 'knex';
import type { CheckoutSessionStatus } from '@stablepay/contracts';
import type { CheckoutSessionRecord, PaymentRecord } from '../records.js';
import { CHECKOUT_SESSIONS, PAYMENTS } from '../db/tables.js';
import { toPayment, toSession, type Row } from '../db/rows.js';

/** Open, unpaid and past its time: expired, whether or not the sweeper has marked it yet. */
const OVERDUE = `status = 'open' and payment_id is null and expires_at <= now()`;

/** Filters on the status a reader sees (an overdue open session is expired). */
const whereShownStatus = (q: Knex.QueryBuilder, status: CheckoutSessionStatus | undefined) => {
  if (status === 'open') return q.where({ status: 'open' }).andWhereRaw(`not (${OVERDUE})`);
  if (status === 'expired') return q.where((w) => w.where({ status: 'expired' }).orWhereRaw(OVERDUE));
  if (status === 'complete') return q.where({ status: 'complete' });
  return q;
};

/** One merchant's sessions, newest first, with the total for paging. */
export const listMerchantSessions = async (
  db: Knex,
  merchantId: string,
  opts: { status?: CheckoutSessionStatus; limit: number; offset: number },
): Promise<{ sessions: CheckoutSessionRecord[]; total: number }> => {
  const base = () => whereShownStatus(db(CHECKOUT_SESSIONS).where({ merchant_id: merchantId }), opts.status);
  const [rows, [count]] = await Promise.all([
    base()
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(opts.limit)
      .offset(opts.offset) as Promise<Row[]>,
    base().count<{ count: string | number }[]>({ count: '*' }),
  ]);
  return { sessions: rows.map(toSession), total: Number(count?.count ?? 0) };
};

/** The payments linked to a page of sessions, by id. */
export const findPaymentsByIds = async (db: Knex, ids: string[]): Promise<Map<string, PaymentRecord>> => {
  if (ids.length === 0) return new Map();
  const rows = (await db(PAYMENTS).whereIn('id', ids).select('*')) as Row[];
  return new Map(rows.map((r) => [String(r.id), toPayment(r)]));
};
