import type { Knex } from 'knex';
import { Counter, Gauge } from 'prom-client';
import type { Metrics } from '@stablepay/platform';
import { readInvoicingBacklog, type InvoicingBacklog } from './db/backlog-repo.js';

/** The invoicing service's own series, registered on the service's registry (served at /metrics). */
export interface InvoicingMetrics {
  /** invoices that could not be issued: the transaction (and the withdrawal's completion) rolled back */
  issueFailures: Counter;
}

/**
 * Withdrawals waiting to complete with their invoice, and invoices waiting for their PDF, read from
 * the database at each scrape (the gauges of one scrape share one read). A failed read never fails
 * the scrape: the gauges keep their last value, as the outbox gauges do.
 */
const backlogGauges = (base: Metrics, db: Knex): void => {
  let inFlight: Promise<InvoicingBacklog | undefined> | undefined;
  const backlog = () =>
    (inFlight ??= readInvoicingBacklog(db)
      .catch(() => undefined)
      .finally(() => {
        inFlight = undefined;
      }));
  // Specs as objects with `name: '...'`: the monitoring test reads the exposed names from this file.
  const specs: Array<{ name: string; help: string; pick: (b: InvoicingBacklog) => number }> = [
    {
      name: 'withdrawals_unfinished',
      help: 'Withdrawals requested or processing (each is numbered and invoiced as it completes)',
      pick: (b) => b.unfinishedWithdrawals,
    },
    {
      name: 'withdrawals_oldest_unfinished_seconds',
      help: 'Age of the oldest withdrawal not yet completed or failed (0 when none is)',
      pick: (b) => b.oldestUnfinishedSeconds,
    },
    {
      name: 'invoices_pdf_pending',
      help: 'Issued invoices whose PDF is not stored yet (invoice.issued not yet published)',
      pick: (b) => b.pdfPending,
    },
    {
      name: 'invoices_oldest_pdf_pending_seconds',
      help: 'Age of the oldest issued invoice whose PDF is not stored yet (0 when none is)',
      pick: (b) => b.oldestPdfPendingSeconds,
    },
  ];
  for (const spec of specs)
    new Gauge({
      name: spec.name,
      help: spec.help,
      registers: [base.registry],
      async collect() {
        const b = await backlog();
        if (b) this.set(spec.pick(b));
      },
    });
};

export const createInvoicingMetrics = (base: Metrics, db?: Knex): InvoicingMetrics => {
  if (db) backlogGauges(base, db);
  return {
    issueFailures: new Counter({
      name: 'invoice_issue_failures_total',
      help: 'Invoices that could not be issued (numbered); the completion that asked for one is retried',
      registers: [base.registry],
    }),
  };
};
