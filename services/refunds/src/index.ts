export { loadRefundsConfig, refundsConfigSchema, type RefundsConfig } from './config.js';
export { refundsService, type RefundsOptions } from './service.js';
export { refundsMigrations } from './db/migrations.js';
export {
  BalanceUnavailableError,
  ChainWatcherClient,
  chainWatcherBalances,
  type BalanceSource,
  type WalletBalances,
} from './dispatch/balances.js';
export type { RefundsContext } from './context.js';
export type { RefundRecord } from './refunds/records.js';
export { merchantChainOf, type RefundablePayment } from './payments/refundable-payment.js';
export {
  COMMITTED_REFUND_STATUSES,
  REFUND_TRANSITIONS,
  refundableRemainder,
  withinRefundWindow,
} from './refunds/rules.js';
export { fundsCover } from './dispatch/decide-dispatch.js';
