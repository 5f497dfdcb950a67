import type { Knex } from 'knex';
import { findInvoice, markPdfStored } from './invoices-repo.js';
import type { InvoicePdfContext } from '../context.js';
import { invoiceFileName, type InvoiceRecord } from './records.js';

/**
 * Renders and stores an invoice's PDF, then marks it stored and writes invoice.issued in one
 * transaction: the event goes out once, and only when the PDF it announces can be fetched. Rendering
 * is deterministic (the invoice row never changes), so two replicas racing here store the same bytes
 * and only one marks it.
 */
export const storeInvoicePdf = async (ctx: InvoicePdfContext, invoice: InvoiceRecord): Promise<Buffer> => {
  const pdf = await ctx.renderPdf(invoice);
  await ctx.storage.put(invoice.pdfKey, pdf);
  const marked = await ctx.db.transaction(async (trx) => {
    if (!(await markPdfStored(trx, invoice.id))) return false;
    await writeIssuedEvent(ctx, trx, invoice);
    return true;
  });
  if (marked) {
    ctx.logger.info('invoice issued', { invoice: invoice.invoiceNumber, key: invoice.pdfKey });
  }
  return pdf;
};

const writeIssuedEvent = (ctx: InvoicePdfContext, trx: Knex.Transaction, i: InvoiceRecord) =>
  ctx.writeEvent(trx, 'invoice.issued', i.merchantId, {
    invoiceId: i.id,
    merchantId: i.merchantId,
    withdrawalId: i.withdrawalId,
    invoiceNumber: i.invoiceNumber,
    grossAmount: i.grossAmount,
    serviceFee: i.serviceFee,
    serviceFeeEur: i.serviceFeeEur,
    taxAmount: i.taxAmount,
    netAmount: i.netAmount,
    currency: i.currency,
    blockchain: i.blockchain,
    taxCase: i.taxCase,
    language: i.language,
    pdfUrl: i.pdfKey,
    fileName: invoiceFileName(i),
    rectifiesInvoiceId: i.rectifiesInvoiceId,
    issuedAt: i.issuedAt.toISOString(),
  });

/** The stored PDF; rendered and stored now when the worker has not got to it yet. */
export const invoicePdf = async (ctx: InvoicePdfContext, invoice: InvoiceRecord): Promise<Buffer> => {
  if (invoice.pdfStoredAt) {
    const stored = await ctx.storage.get(invoice.pdfKey);
    if (stored) return stored;
    ctx.logger.error('invoice PDF missing from storage; rendered again', { invoice: invoice.invoiceNumber });
    const pdf = await ctx.renderPdf(invoice);
    await ctx.storage.put(invoice.pdfKey, pdf);
    return pdf;
  }
  return storeInvoicePdf(ctx, invoice);
};

/** The PDF worker's step for one leased invoice. */
export const storePendingPdf = async (ctx: InvoicePdfContext, id: string): Promise<void> => {
  const invoice = await findInvoice(ctx.db, id);
  if (invoice && !invoice.pdfStoredAt) await storeInvoicePdf(ctx, invoice);
};
