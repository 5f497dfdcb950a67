import type { Knex } from 'knex';
import { eventWriter, type Logger } from '@stablepay/platform';
import type { BalanceSource } from '../clients/chain-watcher.js';
import type { InvoicingMetrics } from '../metrics.js';
import type { EurRateSource } from '../rates/eur-rates.js';
import type { InvoiceStorage } from '../storage/storage.js';
import type { FeePolicy } from './amounts.js';
import type { InvoiceParty, InvoiceRecord } from './records.js';

/** The seller printed on every invoice; its country decides the VAT. */
export interface Seller extends InvoiceParty {
  country: string;
}

/** Everything the domain operations need, passed explicitly. */
export interface InvoicingContext {
  db: Knex;
  logger: Logger;
  metrics: InvoicingMetrics;
  now: () => Date;
  /** Called after a transaction that wrote outbox events has committed (wakes the relay). */
  eventsCommitted: () => void;
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
  storage: InvoiceStorage;
  renderPdf: (invoice: InvoiceRecord) => Promise<Buffer>;
}

/** Every event this service publishes goes through this writer, in the transaction of its change. */
export const writeEvent = eventWriter('invoicing');
