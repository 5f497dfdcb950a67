import type { Knex } from 'knex';
import { INVOICES, WITHDRAWALS } from './migrations.js';

/** What has not reached its end yet, as an operator watches it. */
export interface InvoicingBacklog {
  /** withdrawals requested or processing: each gets its invoice number in the transaction that completes it */
  unfinishedWithdrawals: number;
  /** seconds since the oldest of them was created; 0 when there is none */
  oldestUnfinishedSeconds: number;
  /** issued invoices whose PDF is not stored yet (and so not announced with invoice.issued) */
  pdfPending: number;
  /** seconds since the oldest of them was issued; 0 when there is none */
  oldestPdfPendingSeconds: number;
}

/** One read for a scrape. Withdrawals are few next to payments: their count needs no index of its own. */
export const readInvoicingBacklog = async (db: Knex): Promise<InvoicingBacklog> => {
  const result = (await db.raw(
    `select
       (select count(*)::int from ${WITHDRAWALS} where status in ('requested', 'processing')) as unfinished,
       (select coalesce(extract(epoch from now() - min(created_at)), 0)::float8
          from ${WITHDRAWALS} where status in ('requested', 'processing')) as oldest_unfinished,
       (select count(*)::int from ${INVOICES} where pdf_stored_at is null) as pdf_pending,
       (select coalesce(extract(epoch from now() - min(created_at)), 0)::float8
          from ${INVOICES} where pdf_stored_at is null) as oldest_pdf_pending`,
  )) as {
    rows: Array<{
      unfinished: number;
      oldest_unfinished: number;
      pdf_pending: number;
      oldest_pdf_pending: number;
    }>;
  };
  const row = result.rows[0]!;
  return {
    unfinishedWithdrawals: Number(row.unfinished),
    oldestUnfinishedSeconds: Math.max(0, Number(row.oldest_unfinished)),
    pdfPending: Number(row.pdf_pending),
    oldestPdfPendingSeconds: Math.max(0, Number(row.oldest_pdf_pending)),
  };
};
