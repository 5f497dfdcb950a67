import type { Knex } from 'knex';
import { wakingEventWriter, type EventWriter, type Logger } from '@stablepay/platform';
import type { BalanceSource } from './withdrawals/balances.js';
import type { WithdrawalMachine } from './withdrawals/withdrawal-machine.js';
import type { InvoicingMetrics } from './metrics.js';
import type { EurRateSource } from './rates/eur-rates.js';
import type { InvoiceStorage } from './storage/storage.js';
import type { FeePolicy } from './amounts.js';
import type { InvoiceParty, InvoiceRecord } from './invoices/records.js';

/** The seller printed on every invoice; its country decides the VAT. */
export interface Seller extends InvoiceParty {
  country: string;
}

/**
 * What rendering, storing and announcing invoice PDFs needs. Built before the rest of the context:
 * the PDF worker runs on it, and the context wakes that worker.
 */
export interface InvoicePdfContext {
  db: Knex;
  logger: Logger;
  /** Writes an integration event in the caller's transaction; the outbox relay wakes once it commits. */
  writeEvent: EventWriter;
  storage: InvoiceStorage;
  renderPdf: (invoice: InvoiceRecord) => Promise<Buffer>;
}

/** Everything the domain operations need, passed explicitly. */
export interface InvoicingContext extends InvoicePdfContext {
  metrics: InvoicingMetrics;
  now: () => Date;
  /** Called after a transaction that issued invoices has committed (wakes the PDF worker). */
  invoicesIssued: () => void;
  balances: BalanceSource;
  fees: FeePolicy;
  treasuryAddress: string;
  /** How long a new withdrawal address waits before withdrawals may go there. */
  addressHoldMs: number;
  invoicePrefix: string;
  seller: Seller;
  eurRates: EurRateSource;
  withdrawals: WithdrawalMachine;
}

/** Every event this service publishes goes through this writer, in the transaction of its change. */
export const invoicingEventWriter = (wake: () => void): EventWriter => wakingEventWriter('invoicing', wake);
