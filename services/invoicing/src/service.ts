import { defineService } from '@stablepay/platform';
import { DEVELOPMENT_SELLER_COUNTRY, loadInvoicingConfig, type InvoicingConfig } from './config.js';
import {
  invoicingEventWriter,
  type InvoicePdfContext,
  type InvoicingContext,
  type Seller,
} from './context.js';
import { invoicingMigrations } from './db/migrations.js';
import { pdfWorker } from './invoices/pdf-worker.js';
import { renderInvoicePdf } from './invoices/pdf/render.js';
import { createInvoicingMetrics } from './metrics.js';
import { projectionHandlers } from './projections/projection-handlers.js';
import type { EurRateSource } from './rates/eur-rates.js';
import { eurRatesFromConfig, eurRateWorkers } from './rates/from-config.js';
import { invoicingRoutes } from './routes.js';
import { storageFromConfig } from './storage/from-config.js';
import type { InvoiceStorage } from './storage/storage.js';
import { chainWatcherBalances, type BalanceSource } from './withdrawals/balances.js';
import { transferHandlers } from './withdrawals/transfer-handlers.js';
import { withdrawalMachine } from './withdrawals/withdrawal-machine.js';

export interface InvoicingOptions {
  /** Where merchant wallet balances come from; the chain-watcher's internal API by default. */
  balances?: BalanceSource;
  /** Replaces the storage INVOICE_STORAGE configures. */
  storage?: InvoiceStorage;
  /** Replaces the rate source EUR_RATE_SOURCE configures. */
  eurRates?: EurRateSource;
  /** The clock invoices are dated by (tests of a year's numbering). */
  now?: () => Date;
}

/** Where the city comes before the postcode on an address's last line. */
const CITY_FIRST = new Set(['IE', 'MT']);

/** What an invoice prints when a development run has no seller configured. */
const UNCONFIGURED = 'Seller not configured (SELLER_NAME)';

export const sellerOf = (c: InvoicingConfig): Seller => {
  const country = c.SELLER_COUNTRY ?? DEVELOPMENT_SELLER_COUNTRY;
  const street = (c.SELLER_STREET ?? '')
    .split('|')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const place = CITY_FIRST.has(country)
    ? [c.SELLER_CITY, c.SELLER_POSTCODE]
    : [c.SELLER_POSTCODE, c.SELLER_CITY];
  const placeLine = place.filter((part) => part !== undefined).join(' ');
  return {
    name: c.SELLER_NAME ?? UNCONFIGURED,
    addressLines: placeLine ? [...street, placeLine] : street,
    country,
    vatNumber: c.SELLER_VAT_NUMBER ?? null,
    taxNumber: c.SELLER_TAX_NUMBER ?? null,
    email: c.SELLER_EMAIL ?? null,
  };
};

/**
 * Invoicing: merchants' withdrawals (the fee split on-chain through the chain-watcher), the invoice
 * each completed withdrawal issues (numbered, taxed, rendered to PDF and stored), billing profiles,
 * and rectifications.
 */
export const invoicingService = defineService({
  name: 'invoicing',
  migrations: invoicingMigrations,
  loadConfig: loadInvoicingConfig,
  build: ({ config, deps, eventsCommitted }, options: InvoicingOptions) => {
    const storage = options.storage ?? storageFromConfig(config);
    const pdfContext: InvoicePdfContext = {
      db: deps.db,
      logger: deps.logger,
      writeEvent: invoicingEventWriter(eventsCommitted),
      storage,
      renderPdf: renderInvoicePdf,
    };
    const pdfs = pdfWorker(pdfContext, config.PDF_POLL_MS);
    const context: InvoicingContext = {
      ...pdfContext,
      metrics: createInvoicingMetrics(deps.metrics, deps.db),
      now: options.now ?? (() => new Date()),
      invoicesIssued: () => pdfs.wake(),
      balances: options.balances ?? chainWatcherBalances(config),
      fees: { rate: config.WITHDRAWAL_FEE_RATE, minimum: config.WITHDRAWAL_FEE_MIN },
      treasuryAddress: config.TREASURY_ADDRESS,
      addressHoldMs: config.WITHDRAWAL_ADDRESS_HOLD,
      invoicePrefix: config.INVOICE_PREFIX,
      seller: sellerOf(config),
      eurRates: options.eurRates ?? eurRatesFromConfig(config),
      withdrawals: withdrawalMachine(pdfContext.writeEvent),
    };
    return {
      routes: invoicingRoutes(context),
      consumers: { ...projectionHandlers(), ...transferHandlers(context) },
      addressedAs: 'withdrawal',
      workers: [pdfs, ...eurRateWorkers(config, deps, options.eurRates)],
      readiness: [{ name: 'invoice storage', check: () => storage.check() }],
      close: () => storage.close?.(),
      context,
    };
  },
});
