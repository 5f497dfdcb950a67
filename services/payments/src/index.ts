export { loadPaymentsConfig, paymentsConfigSchema, type PaymentsConfig } from './config.js';
export { paymentsService, type PaymentsOptions } from './service.js';
export type { FeeInputsSource } from './fee-quote/fee-inputs.js';
export { paymentsMigrations } from './db/migrations.js';
export { createPaymentsContext, type PaymentsContext } from './context.js';
export type { CheckoutSessionRecord, MerchantRecord, PaymentRecord } from './records.js';
export {
  PAYMENT_TRANSITIONS,
  advanceCrossChainPayment,
  completePayment,
  failPayment,
  type CompletionFacts,
  type TransitionResult,
} from './payments/payment-state.js';
export {
  CHECKOUT_PROOF_DOMAIN,
  CHECKOUT_PROOF_TYPES,
  qrAmount,
  qrTagUnits,
  sessionProofValid,
} from './checkout/session-link.js';
