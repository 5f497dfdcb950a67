export { invoicingConfigSchema, loadInvoicingConfig, type InvoicingConfig } from './config.js';
export { invoicingService, sellerOf, type InvoicingOptions } from './service.js';
export { invoicingMigrations } from './db/migrations.js';
export {
  BalanceUnavailableError,
  ChainWatcherClient,
  chainWatcherBalances,
  type BalanceSource,
  type MerchantWallet,
} from './withdrawals/balances.js';
export type { InvoicingContext, Seller } from './context.js';
export type { InvoiceParty, InvoiceRecord } from './invoices/records.js';
export type { WithdrawalRecord } from './withdrawals/records.js';
export { splitFee, toEurCents, vatIncluded, type FeePolicy } from './amounts.js';
export { decideTax, vatNumberProblem, type TaxDecision } from './billing/tax.js';
export { EU_STANDARD_VAT_BP, isEuMember } from './billing/vat-rates.js';
export { invoiceNumber } from './invoices/issue-invoice.js';
export { parseTransferKey, transferKey } from './withdrawals/withdrawal-rules.js';
export { invoiceDocument } from './invoices/pdf/invoice-document.js';
export { renderInvoicePdf } from './invoices/pdf/render.js';
export { LABELS, formatDecimal } from './invoices/pdf/labels.js';
export { eurPerUsd, parseEcbDaily } from './rates/ecb-feed.js';
export { fixedEurRates, storedEcbRates, type EurRate, type EurRateSource } from './rates/eur-rates.js';
export { localStorage } from './storage/local.js';
export { s3Storage, type S3StorageOptions } from './storage/s3.js';
export type { InvoiceStorage } from './storage/storage.js';
