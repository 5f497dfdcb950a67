export { loadRefundsConfig, refundsConfigSchema, type RefundsConfig } from './config.js';
export { refundsService, type RefundsOptions } from './service.js';
export { refundsMigrations } from './db/migrations.js';
export {
  BalanceUnavailableError,
  ChainWatcherClient,
  chainWatcherBalances,
  type BalanceSource,
  type WalletBalances,
} from './clients/chain-watcher.js';
export type { RefundsContext } from './domain/context.js';
export type { RefundablePayment, RefundRecord } from './domain/records.js';
export {
  COMMITTED_REFUND_STATUSES,
  REFUND_TRANSITIONS,
  fundsCover,
  merchantChainOf,
  refundableRemainder,
  withinRefundWindow,
} from './domain/rules.js';
