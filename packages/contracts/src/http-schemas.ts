/*
 * Every request and response of the HTTP interface, by capability. The OpenAPI document names each
 * exported PascalCase schema of these files (openapi/components.ts): a schema a route uses must be
 * exported from one of them.
 */
export * from './accounts/auth.js';
export * from './accounts/api-keys.js';
export * from './accounts/mfa.js';
export * from './accounts/audit.js';
export * from './merchants/schemas.js';
export * from './merchants/settings.js';
export * from './chains/public.js';
export * from './payments/schemas.js';
export * from './payments/status.js';
export * from './payments/views.js';
export * from './payments/list.js';
export * from './payments/internal.js';
export * from './cctp/fee.js';
export * from './cctp/fee-inputs.js';
export * from './gasless/schemas.js';
export * from './checkout/schemas.js';
export * from './checkout/list.js';
export * from './top-ups/schemas.js';
export * from './refunds/schemas.js';
export * from './refunds/status.js';
export * from './withdrawals/schemas.js';
export * from './withdrawals/address-book.js';
export * from './invoices/schemas.js';
export * from './invoices/billing.js';
export * from './invoices/format.js';
export * from './ledger/balance-transactions.js';
export * from './ledger/reconciliation.js';
export * from './wallets/schemas.js';
export * from './wallets/internal.js';
export * from './webhooks/endpoints.js';
export * from './webhooks/deliveries.js';
export * from './webhooks/event-log.js';
