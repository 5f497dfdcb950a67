import type { Knex } from 'knex';
import {
  baseUnitsToDecimal,
  type BalanceTransaction,
  type BalanceTransactionListQuery,
  type BalanceTransactionType,
  type BlockchainName,
  type Currency,
} from '@stablepay/contracts';
import { LEDGER_ENTRIES, LEDGER_JOURNALS } from './migration.js';

/** The most rows one CSV export holds: a narrower date range exports the rest. */
export const CSV_EXPORT_MAX_ROWS = 10_000;

type Filters = Omit<BalanceTransactionListQuery, 'limit' | 'offset' | 'format'>;

const DAY_MS = 86_400_000;
const isBareDate = (v: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(v);

/** The merchant's wallet-account entries that match, joined with their journals. */
const matching = (db: Knex, merchantId: string, f: Filters): Knex.QueryBuilder => {
  const q = db(`${LEDGER_ENTRIES} as e`)
    .join(`${LEDGER_JOURNALS} as j`, 'j.id', 'e.journal_id')
    .where('e.merchant_id', merchantId)
    .andWhere('e.account', 'wallet');
  if (f.type) q.andWhere('j.type', f.type);
  if (f.currency) q.andWhere('e.token', f.currency);
  if (f.payment_id) q.andWhere('j.payment_id', f.payment_id);
  if (f.refund_id) q.andWhere('j.refund_id', f.refund_id);
  if (f.withdrawal_id) q.andWhere('j.withdrawal_id', f.withdrawal_id);
  if (f.startDate) q.andWhere('e.created_at', '>=', new Date(f.startDate));
  if (f.endDate) {
    // A bare date includes that whole day (UTC), as the payments list reads it.
    if (isBareDate(f.endDate)) q.andWhere('e.created_at', '<', new Date(Date.parse(f.endDate) + DAY_MS));
    else q.andWhere('e.created_at', '<=', new Date(f.endDate));
  }
  return q;
};

interface Row {
  id: string;
  type: BalanceTransactionType;
  amount: string;
  token: string;
  blockchain: string;
  tx_hash: string | null;
  block_number: string | null;
  payment_id: string | null;
  refund_id: string | null;
  withdrawal_id: string | null;
  balance_after: string;
  created_at: Date;
}

const toView = (r: Row): BalanceTransaction => ({
  id: r.id,
  type: r.type,
  amount: baseUnitsToDecimal(BigInt(r.amount)),
  currency: r.token as Currency,
  blockchain: r.blockchain as BlockchainName,
  tx_hash: r.tx_hash,
  block_number: r.block_number === null ? null : Number(r.block_number),
  payment_id: r.payment_id,
  refund_id: r.refund_id,
  withdrawal_id: r.withdrawal_id,
  balance_after: baseUnitsToDecimal(BigInt(r.balance_after)),
  created_at: r.created_at.toISOString(),
});

const page = (db: Knex, merchantId: string, f: Filters, limit: number, offset: number) =>
  matching(db, merchantId, f)
    .select(
      'e.id',
      'j.type',
      'e.amount',
      'e.token',
      'j.blockchain',
      'j.tx_hash',
      'e.block_number',
      'j.payment_id',
      'j.refund_id',
      'j.withdrawal_id',
      'e.balance_after',
      'e.created_at',
    )
    // The order the ledger recorded them in, newest first: balance_after reads down the page.
    .orderBy('e.seq', 'desc')
    .limit(limit)
    .offset(offset) as Promise<Row[]>;

/** One page of the merchant's balance transactions and how many match in all. */
export const listBalanceTransactions = async (
  db: Knex,
  merchantId: string,
  q: BalanceTransactionListQuery,
): Promise<{ balance_transactions: BalanceTransaction[]; total: number; limit: number; offset: number }> => {
  const { limit, offset, format: _format, ...filters } = q;
  const [rows, counted] = await Promise.all([
    page(db, merchantId, filters, limit, offset),
    matching(db, merchantId, filters).count({ n: '*' }).first() as Promise<{ n: string | number }>,
  ]);
  return { balance_transactions: rows.map(toView), total: Number(counted.n), limit, offset };
};

/** Every matching balance transaction for an export, newest first, up to CSV_EXPORT_MAX_ROWS. */
export const exportBalanceTransactions = async (
  db: Knex,
  merchantId: string,
  q: BalanceTransactionListQuery,
): Promise<BalanceTransaction[]> => {
  const { limit: _limit, offset: _offset, format: _format, ...filters } = q;
  return (await page(db, merchantId, filters, CSV_EXPORT_MAX_ROWS, 0)).map(toView);
};

export const CSV_COLUMNS = [
  'id',
  'created_at',
  'type',
  'amount',
  'currency',
  'blockchain',
  'tx_hash',
  'block_number',
  'payment_id',
  'refund_id',
  'withdrawal_id',
  'balance_after',
] as const satisfies ReadonlyArray<keyof BalanceTransaction>;

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
const csvField = (v: string | number | null): string => {
  const text = v === null ? '' : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** A header row, then one row per transaction, CRLF line ends. */
export const toCsv = (rows: readonly BalanceTransaction[]): string =>
  [CSV_COLUMNS.join(','), ...rows.map((r) => CSV_COLUMNS.map((c) => csvField(r[c])).join(','))]
    .map((line) => `${line}\r\n`)
    .join('');
