export { invoicingConfigSchema, loadInvoicingConfig, type InvoicingConfig } from './config.js';
export { invoicingService, sellerOf, type InvoicingOptions } from './service.js';
export { invoicingMigrations } from './db/migrations.js';
export {
  BalanceUnavailableError,
  ChainWatcherClient,
  chainWatcherBalances,
  type BalanceSource,
  type MerchantWallet,
} from './clients/chain-watcher.js';
export type { InvoicingContext, Seller } from './domain/context.js';
export type { InvoiceParty, InvoiceRecord, WithdrawalRecord } from './domain/records.js';
export { splitFee, toEurCents, vatIncluded, type FeePolicy } from './domain/amounts.js';
export { decideTax, vatNumberProblem, type TaxDecision } from './domain/tax.js';
export { EU_STANDARD_VAT_BP, isEuMember } from './domain/vat-rates.js';
export { invoiceNumber } from './domain/issue-invoice.js';
export { parseTransferKey, transferKey } from './domain/withdrawal-rules.js';
export { invoiceDocument } from './pdf/invoice-document.js';
export { renderInvoicePdf } from './pdf/render.js';
export { LABELS, formatDecimal } from './pdf/labels.js';
export { eurPerUsd, parseEcbDaily } from './rates/ecb-feed.js';
export { fixedEurRates, storedEcbRates, type EurRate, type EurRateSource } from './rates/eur-rates.js';
export { localStorage } from './storage/local.js';
export { s3Storage, type S3StorageOptions } from './storage/s3.js';
export type { InvoiceStorage } from './storage/storage.js';
