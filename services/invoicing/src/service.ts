import { defineService, type Worker } from '@stablepay/platform';
import { chainWatcherBalances, type BalanceSource } from './clients/chain-watcher.js';
import { loadInvoicingConfig, type InvoicingConfig } from './config.js';
import { invoicingMigrations } from './db/migrations.js';
import type { InvoicingContext, Seller } from './domain/context.js';
import { invoicingRoutes } from './http/routes.js';
import { createInvoicingMetrics } from './metrics.js';
import { projectionHandlers } from './messaging/projection-handlers.js';
import { transferHandlers } from './messaging/transfer-handlers.js';
import { renderInvoicePdf } from './pdf/render.js';
import { ecbRatesWorker } from './rates/ecb-feed.js';
import { fixedEurRates, storedEcbRates, type EurRateSource } from './rates/eur-rates.js';
import { storageFromConfig } from './storage/from-config.js';
import type { InvoiceStorage } from './storage/storage.js';
import { pdfWorker } from './workers/pdf-worker.js';

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

export const sellerOf = (c: InvoicingConfig): Seller => ({
  name: c.SELLER_NAME,
  addressLines: c.SELLER_ADDRESS.split('|')
    .map((line) => line.trim())
    .filter((line) => line.length > 0),
  country: c.SELLER_COUNTRY,
  vatNumber: c.SELLER_VAT_NUMBER ?? null,
  email: c.SELLER_EMAIL ?? null,
});

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
    const eurRates =
      options.eurRates ??
      (config.EUR_RATE_SOURCE === 'ecb' ? storedEcbRates() : fixedEurRates({ USDC: config.EUR_RATE_USDC }));
    const context: InvoicingContext = {
      db: deps.db,
      logger: deps.logger,
      metrics: createInvoicingMetrics(deps.metrics, deps.db),
      now: options.now ?? (() => new Date()),
      eventsCommitted,
      // The context wakes the PDF worker and the worker needs the context: this runs once both exist.
      invoicesIssued: () => pdfs.wake(),
      balances: options.balances ?? chainWatcherBalances(config),
      fees: { rate: config.WITHDRAWAL_FEE_RATE, minimum: config.WITHDRAWAL_FEE_MIN },
      treasuryAddress: config.TREASURY_ADDRESS,
      addressHoldMs: config.WITHDRAWAL_ADDRESS_HOLD,
      invoicePrefix: config.INVOICE_PREFIX,
      seller: sellerOf(config),
      eurRates,
      storage,
      renderPdf: renderInvoicePdf,
    };
    const pdfs = pdfWorker(context, config.PDF_POLL_MS);
    const workers: Worker[] = [pdfs];
    if (config.EUR_RATE_SOURCE === 'ecb' && !options.eurRates) {
      workers.push(
        ecbRatesWorker({
          db: deps.db,
          url: config.ECB_RATES_URL,
          intervalMs: config.ECB_REFRESH_MS,
          timeoutMs: 10_000,
          logger: deps.logger,
        }),
      );
    }
    return {
      routes: invoicingRoutes(context),
      consumers: { ...projectionHandlers(), ...transferHandlers(context) },
      addressedAs: 'withdrawal',
      workers,
      // A completion commits its invoice: render it now rather than at the next poll.
      afterConsume: () => pdfs.wake(),
      readiness: [{ name: 'invoice storage', check: () => storage.check() }],
      close: () => storage.close?.(),
      context,
    };
  },
});
