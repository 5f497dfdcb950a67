import type { Knex } from 'knex';
import type { InvoiceStatus } from '@stablepay/contracts';
import { leaseRows, type Db } from '@stablepay/platform';
import { INVOICE_SEQUENCES, INVOICES } from '../db/migrations.js';
import { column, firstOf, rowMapper, type Row } from '../db/rows.js';
import type { InvoiceParty, InvoiceRecord } from './records.js';

const toInvoice = rowMapper<InvoiceRecord>({
  id: column.text,
  merchantId: column.text,
  withdrawalId: column.text,
  invoiceNumber: column.text,
  prefix: column.text,
  year: column.int,
  sequence: column.int,
  status: column.oneOf(),
  issuedAt: column.date,
  currency: column.oneOf(),
  blockchain: column.oneOf(),
  grossAmount: column.decimal,
  serviceFee: column.decimal,
  netAmount: column.decimal,
  feeRate: column.decimal,
  eurRate: column.decimal,
  eurRateDate: column.text,
  eurRateSource: column.text,
  serviceFeeEur: column.cents,
  taxCase: column.oneOf(),
  taxRateBp: column.int,
  vatCountry: column.str,
  taxAmount: column.decimal,
  taxAmountEur: column.cents,
  language: column.oneOf(),
  seller: column.json<InvoiceParty>,
  customer: column.json<InvoiceParty>,
  destinationAddress: column.text,
  netTxHash: column.text,
  feeTxHash: column.text,
  withdrawalCompletedAt: column.date,
  rectifiesInvoiceId: column.str,
  rectifiedByInvoiceId: column.str,
  rectificationReason: column.str,
  rectifiesInvoiceNumber: column.str,
  pdfKey: column.text,
  pdfStoredAt: column.dateOrNull,
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
  return firstOf(q, toInvoice);
};

/** The invoice first issued for a withdrawal. */
export const findOriginalInvoice = async (
  db: Db,
  withdrawalId: string,
): Promise<InvoiceRecord | undefined> => {
  return firstOf(
    withRectified(db)
      .where(`${INVOICES}.withdrawal_id`, withdrawalId)
      .whereNull(`${INVOICES}.rectifies_invoice_id`),
    toInvoice,
  );
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
  const rows = await leaseRows<Row>(db, {
    table: INVOICES,
    leaseColumn: 'pdf_lease_until',
    open: 'pdf_stored_at is null',
    orderBy: 'created_at',
    returning: 'id',
    limit,
    leaseMs,
  });
  return rows.map((r) => String(r.id));
};

/** Marks the PDF stored; false when another replica (or a download) did first. */
export const markPdfStored = async (db: Db, id: string): Promise<boolean> =>
  (await db(INVOICES)
    .where({ id })
    .whereNull('pdf_stored_at')
    .update({ pdf_stored_at: db.fn.now(), pdf_lease_until: null })) === 1;
