import { PDF_CONTENT_TYPE, type InvoicePdfMode } from '@stablepay/contracts';
import { ok, type HandlerOf } from '@stablepay/platform';
import type { Response } from 'express';
import type { InvoicingContext } from '../context.js';
import { invoicePdf } from './invoice-pdf.js';
import { getInvoice, getMerchantInvoice, listMerchantInvoices } from './invoice-queries.js';
import { invoiceFileName, type InvoiceRecord } from './records.js';
import { rectifyInvoice } from './rectify-invoice.js';
import { toInvoiceView } from './views.js';

type List = HandlerOf<'listInvoices'> & HandlerOf<'listInvoicesApi'>;
type Pdf = HandlerOf<'getInvoicePdf'> & HandlerOf<'getInvoicePdfApi'>;

/** GET /invoices (jwt) and /invoices/api/list (key): `year` and `status` filters, newest first. */
export const listInvoicesRoute =
  (ctx: InvoicingContext): List =>
  async ({ query, merchant, res }) => {
    ok(res, (await listMerchantInvoices(ctx, merchant.merchantId, query)).map(toInvoiceView));
  };

/** The bytes themselves (no redirect, no temporary URL), inline or as an attachment. */
const sendPdf = (res: Response, invoice: InvoiceRecord, pdf: Buffer, mode: InvoicePdfMode) => {
  const disposition = mode === 'download' ? 'attachment' : 'inline';
  res.status(200);
  res.setHeader('Content-Type', PDF_CONTENT_TYPE);
  res.setHeader('Content-Length', String(pdf.length));
  res.setHeader('Content-Disposition', `${disposition}; filename="${invoiceFileName(invoice)}"`);
  // An invoice never changes, but it is the merchant's document: no shared cache may keep it.
  res.setHeader('Cache-Control', 'private, max-age=0, must-revalidate');
  res.end(pdf);
};

/** GET /invoices/:id/pdf (jwt) and /invoices/api/:id/pdf (key): another merchant's invoice is a 404. */
export const invoicePdfRoute =
  (ctx: InvoicingContext): Pdf =>
  async ({ params, query, merchant, res }) => {
    const invoice = await getMerchantInvoice(ctx, merchant.merchantId, params.id);
    sendPdf(res, invoice, await invoicePdf(ctx, invoice), query.mode);
  };

/** POST /invoices/:id/rectify (jwt): 201 with the rectifying invoice; 409 once rectified. */
export const rectifyInvoiceRoute =
  (ctx: InvoicingContext): HandlerOf<'rectifyInvoice'> =>
  async ({ params, body, merchant, res }) => {
    ok(res, toInvoiceView(await rectifyInvoice(ctx, merchant.merchantId, params.id, body)), 201);
  };

/** GET /internal/invoices/:id/pdf (service): the notifier's attachment. */
export const internalInvoicePdfRoute =
  (ctx: InvoicingContext): HandlerOf<'getInternalInvoicePdf'> =>
  async ({ params, res }) => {
    const invoice = await getInvoice(ctx, params.id);
    sendPdf(res, invoice, await invoicePdf(ctx, invoice), 'download');
  };
