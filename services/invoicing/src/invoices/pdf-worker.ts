import { errorText, loopWorker, type LoopWorker } from '@stablepay/platform';
import { claimPdfPending } from './invoices-repo.js';
import type { InvoicePdfContext } from '../context.js';
import { storePendingPdf } from './invoice-pdf.js';

const BATCH = 10;
/** Covers rendering and storing a batch; a replica that dies mid-batch leaves its lease to run out. */
const LEASE_MS = 60_000;

/**
 * Renders and stores the PDF of every invoice issued, then announces it (invoice.issued). Runs in
 * every replica: leases hand each invoice to one at a time.
 */
export const pdfWorker = (ctx: InvoicePdfContext, pollMs: number): LoopWorker =>
  loopWorker({
    name: 'invoice-pdf',
    intervalMs: pollMs,
    logger: ctx.logger,
    pass: async () => {
      const ids = await claimPdfPending(ctx.db, BATCH, LEASE_MS);
      for (const id of ids) {
        try {
          await storePendingPdf(ctx, id);
        } catch (err) {
          ctx.logger.warn('invoice PDF not stored; retried when its lease runs out', {
            invoiceId: id,
            err: errorText(err),
          });
        }
      }
      return ids.length === BATCH;
    },
  });
