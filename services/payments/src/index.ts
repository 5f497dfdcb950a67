export { loadPaymentsConfig, paymentsConfigSchema, type PaymentsConfig } from './config.js';
export { paymentsService, type PaymentsOptions } from './service.js';
export type { FeeInputsSource } from './clients/chain-watcher.js';
export { paymentsMigrations } from './db/migrations.js';
export { createPaymentsContext, type PaymentsContext } from './domain/context.js';
export type { CheckoutSessionRecord, MerchantRecord, PaymentRecord } from './domain/records.js';
export {
  PAYMENT_TRANSITIONS,
  advanceCrossChainPayment,
  completePayment,
  failPayment,
  type CompletionFacts,
  type TransitionResult,
} from './domain/payment-state.js';
export {
  CHECKOUT_PROOF_DOMAIN,
  CHECKOUT_PROOF_TYPES,
  qrAmount,
  qrTagUnits,
  sessionProofValid,
} from './domain/session-link.js';
