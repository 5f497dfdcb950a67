export { loadPaymentsConfig, paymentsConfigSchema, type PaymentsConfig } from './config.js';
export { paymentsService, type PaymentsOptions } from './service.js';
export type { FeeInputsSource } from './fee-quote/fee-inputs.js';
export { paymentsMigrations } from './db/migrations.js';
export type { PaymentsContext } from './context.js';
export type { CheckoutSessionRecord, MerchantRecord, PaymentRecord } from './records.js';
export { CHECKOUT_PROOF_DOMAIN, CHECKOUT_PROOF_TYPES, qrTagUnits } from './checkout/session-link.js';
