import type { InvoiceListQuery } from '@stablepay/contracts';
import { notFound } from '@stablepay/platform';
import { findInvoice, listInvoices } from './invoices-repo.js';
import type { InvoicingContext } from '../context.js';
import type { InvoiceRecord } from './records.js';

export const listMerchantInvoices = (
  ctx: InvoicingContext,
  merchantId: string,
  q: InvoiceListQuery,
): Promise<InvoiceRecord[]> => listInvoices(ctx.db, { merchantId, ...q });

/** Another merchant's invoice is not found, never forbidden. */
export const getMerchantInvoice = async (
  ctx: InvoicingContext,
  merchantId: string,
  id: string,
): Promise<InvoiceRecord> => {
  const invoice = await findInvoice(ctx.db, id, merchantId);
  if (!invoice) throw notFound('Invoice');
  return invoice;
};

/** Any merchant's invoice: for the service-to-service route only (the notifier's attachment). */
export const getInvoice = async (ctx: InvoicingContext, id: string): Promise<InvoiceRecord> => {
  const invoice = await findInvoice(ctx.db, id);
  if (!invoice) throw notFound('Invoice');
  return invoice;
};
