import type { RectifyInvoiceBody } from '@stablepay/contracts';
import { conflict, fieldDetail, notFound } from '@stablepay/platform';
import { lockInvoice, markRectified } from './invoices-repo.js';
import type { InvoicingContext } from '../context.js';
import { issueInvoiceIn } from './issue-invoice.js';
import type { InvoiceRecord } from './records.js';

/**
 * POST /invoices/:id/rectify. Invoices are never edited: the issued one becomes `rectified` and a
 * new one with the next number replaces it, with the merchant's billing profile as it is now (the
 * usual reason: a wrong address or VAT number), the same amounts and the original's EUR rate (the
 * supply did not change). Both stay listed and both PDFs stay available.
 */
export const rectifyInvoice = async (
  ctx: InvoicingContext,
  merchantId: string,
  id: string,
  body: RectifyInvoiceBody,
): Promise<InvoiceRecord> => {
  const rectifying = await ctx.db.transaction(async (trx) => {
    const original = await lockInvoice(trx, id, merchantId);
    if (!original) throw notFound('Invoice');
    if (original.status !== 'issued') {
      throw conflict('Invoice is already rectified', [
        fieldDetail(
          'id',
          `Rectify the invoice that replaced it (${original.rectifiedByInvoiceId})`,
          'invoice_not_issued',
        ),
      ]);
    }
    const rate = { eurPerUnit: original.eurRate, date: original.eurRateDate, source: original.eurRateSource };
    const issued = await issueInvoiceIn(ctx, trx, original, {
      rate,
      rectifies: original,
      reason: body.reason,
    });
    if (!(await markRectified(trx, original.id, issued.id)))
      throw new Error(`invoice ${id} left issued meanwhile`);
    return issued;
  });
  ctx.logger.info('invoice rectified', { invoice: id, by: rectifying.invoiceNumber });
  return rectifying;
};
