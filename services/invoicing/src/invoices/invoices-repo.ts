import type { Knex } from 'knex';
import type { InvoiceStatus } from '@stablepay/contracts';
import { INVOICE_SEQUENCES, INVOICES } from '../db/migrations.js';
import { cents, date, dateOrNull, decimal, json, str, type Row } from '../db/rows.js';
import type { InvoiceParty, InvoiceRecord } from './records.js';

type Db = Knex | Knex.Transaction;

const toInvoice = (r: Row): InvoiceRecord => ({
  id: String(r.id),
  merchantId: String(r.merchant_id),
  withdrawalId: String(r.withdrawal_id),
  invoiceNumber: String(r.invoice_number),
  prefix: String(r.prefix),
  year: Number(r.year),
  sequence: Number(r.sequence),
  status: r.status as InvoiceRecord['status'],
  issuedAt: date(r.issued_at),
  currency: r.currency as InvoiceRecord['currency'],
  blockchain: r.blockchain as InvoiceRecord['blockchain'],
  grossAmount: decimal(r.gross_amount),
  serviceFee: decimal(r.service_fee),
  netAmount: decimal(r.net_amount),
  feeRate: decimal(r.fee_rate),
  eurRate: decimal(r.eur_rate),
  eurRateDate: String(r.eur_rate_date),
  eurRateSource: String(r.eur_rate_source),
  serviceFeeEur: cents(r.service_fee_eur),
  taxCase: r.tax_case as InvoiceRecord['taxCase'],
  taxRateBp: Number(r.tax_rate_bp),
  vatCountry: str(r.vat_country),
  taxAmount: decimal(r.tax_amount),
  taxAmountEur: cents(r.tax_amount_eur),
  language: r.language as InvoiceRecord['language'],
  seller: json<InvoiceParty>(r.seller),
  customer: json<InvoiceParty>(r.customer),
  destinationAddress: String(r.destination_address),
  netTxHash: String(r.net_tx_hash),
  feeTxHash: String(r.fee_tx_hash),
  withdrawalCompletedAt: date(r.withdrawal_completed_at),
  rectifiesInvoiceId: str(r.rectifies_invoice_id),
  rectifiedByInvoiceId: str(r.rectified_by_invoice_id),
  rectificationReason: str(r.rectification_reason),
  rectifiesInvoiceNumber: str(r.rectifies_invoice_number),
  pdfKey: String(r.pdf_key),
  pdfStoredAt: dateOrNull(r.pdf_stored_at),
});

/** Invoices with the number of the invoice each rectifies, for views and PDFs. */
const withRectified = (db: Db) =>
  db(INVOICES).select(
    `${INVOICES}.*`,
    db.raw(
      `(select r.invoice_number from ${INVOICES} r where r.id = ${INVOICES}.rectifies_invoice_id) as rectifies_invoice_number`,
    ),
  );

/**
 * The next number of (prefix, year), gapless: the counter row is created or incremented in one
 * statement that keeps it locked until the calling transaction ends (as SELECT ... FOR UPDATE
 * would). Concurrent issuers wait for each other here, numbers follow commit order, and a
 * transaction that rolls back gives its number back.
 */
export const nextSequence = async (trx: Knex.Transaction, prefix: string, year: number): Promise<number> => {
  const result = (await trx.raw(
    `insert into ${INVOICE_SEQUENCES} (prefix, year, last_value) values (?, ?, 1)
     on conflict (prefix, year) do update set last_value = ${INVOICE_SEQUENCES}.last_value + 1
     returning last_value`,
    [prefix, year],
  )) as { rows: Row[] };
  return Number(result.rows[0]!.last_value);
};

export type NewInvoiceRow = Record<string, unknown> & { id: string };

export const insertInvoice = async (db: Db, row: NewInvoiceRow): Promise<InvoiceRecord> => {
  await db(INVOICES).insert(row);
  return (await findInvoice(db, row.id))!;
};

/** With `merchantId`, another merchant's invoice is simply not found. */
export const findInvoice = async (
  db: Db,
  id: string,
  merchantId?: string,
): Promise<InvoiceRecord | undefined> => {
  const q = withRectified(db).where(`${INVOICES}.id`, id);
  if (merchantId !== undefined) q.andWhere(`${INVOICES}.merchant_id`, merchantId);
  const row = (await q.first()) as Row | undefined;
  return row ? toInvoice(row) : undefined;
};

/** The invoice first issued for a withdrawal. */
export const findOriginalInvoice = async (
  db: Db,
  withdrawalId: string,
): Promise<InvoiceRecord | undefined> => {
  const row = (await withRectified(db)
    .where(`${INVOICES}.withdrawal_id`, withdrawalId)
    .whereNull(`${INVOICES}.rectifies_invoice_id`)
    .first()) as Row | undefined;
  return row ? toInvoice(row) : undefined;
};

/** The merchant's invoice locked until the transaction ends (a rectification at a time). */
export const lockInvoice = async (
  trx: Knex.Transaction,
  id: string,
  merchantId: string,
): Promise<InvoiceRecord | undefined> => {
  const row = (await trx(INVOICES).where({ id, merchant_id: merchantId }).forUpdate().first('id')) as
    Row | undefined;
  return row ? findInvoice(trx, id, merchantId) : undefined;
};

/** issued → rectified, naming the invoice that replaces it; false when it was not issued. */
export const markRectified = async (db: Db, id: string, byInvoiceId: string): Promise<boolean> =>
  (await db(INVOICES)
    .where({ id, status: 'issued' })
    .update({ status: 'rectified', rectified_by_invoice_id: byInvoiceId })) === 1;

export interface InvoiceQuery {
  merchantId: string;
  year?: number;
  status?: InvoiceStatus;
}

/** Newest first; numbers break ties within one instant. */
export const listInvoices = async (db: Db, q: InvoiceQuery): Promise<InvoiceRecord[]> => {
  const b = withRectified(db).where(`${INVOICES}.merchant_id`, q.merchantId);
  if (q.year !== undefined) b.andWhere(`${INVOICES}.year`, q.year);
  if (q.status) b.andWhere(`${INVOICES}.status`, q.status);
  const rows = (await b.orderBy([
    { column: `${INVOICES}.issued_at`, order: 'desc' },
    { column: `${INVOICES}.sequence`, order: 'desc' },
  ])) as Row[];
  return rows.map(toInvoice);
};

/**
 * Leases invoices whose PDF is not stored yet (SKIP LOCKED, a lease in the row): replicas share the
 * rendering and none holds a transaction while it renders.
 */
export const claimPdfPending = async (db: Knex, limit: number, leaseMs: number): Promise<string[]> => {
  const result = (await db.raw(
    `update ${INVOICES} set pdf_lease_until = now() + (? * interval '1 millisecond')
      where id in (
        select id from ${INVOICES}
         where pdf_stored_at is null and (pdf_lease_until is null or pdf_lease_until < now())
         order by created_at
         limit ?
         for update skip locked)
     returning id`,
    [leaseMs, limit],
  )) as { rows: Row[] };
  return result.rows.map((r) => String(r.id));
};

/** Marks the PDF stored; false when another replica (or a download) did first. */
export const markPdfStored = async (db: Db, id: string): Promise<boolean> =>
  (await db(INVOICES)
    .where({ id })
    .whereNull('pdf_stored_at')
    .update({ pdf_stored_at: db.fn.now(), pdf_lease_until: null })) === 1;
