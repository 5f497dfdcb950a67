export { loadPaymentsConfig, paymentsConfigSchema, type PaymentsConfig } from './config.js';
export { paymentsService, type PaymentsOptions } from './service.js';
export type { FeeInputsSource } from './fee-quote/fee-inputs.js';
export { paymentsMigrations } from './db/migrations.js';
export type { PaymentsContext } from './context.js';
export type { CheckoutSessionRecord, MerchantRecord, PaymentRecord } from './records.js';
export { qrTagUnits } from './checkout/session-link.js';
/** The EIP-712 proof's types, defined once in the contracts (kept here for existing importers). */
export { CHECKOUT_PROOF_DOMAIN, CHECKOUT_PROOF_TYPES } from '@stablepay/contracts';
