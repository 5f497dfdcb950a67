import { defineService } from '@stablepay/platform';
import { chainWatcherBalances, type BalanceSource } from './dispatch/balances.js';
import { paymentsApi, type PaymentSource } from './payments/payments-client.js';
import { loadRefundsConfig } from './config.js';
import { refundsMigrations } from './db/migrations.js';
import { refundsRecording, type RefundsContext } from './context.js';
import { refundsRoutes } from './refunds/routes.js';
import { paymentProjectionHandlers } from './payments/payment-handlers.js';
import { transferHandlers } from './dispatch/transfer-handlers.js';
import { dispatcherOptions, dispatcherWorker } from './dispatch/dispatcher.js';

export interface RefundsOptions {
  /** Where merchant wallet balances come from; the chain-watcher's internal API by default. */
  balances?: BalanceSource;
  /** Where a payment not projected yet is read; the payments service's internal API by default. */
  payments?: PaymentSource;
}

/**
 * Refunds: the API over refunds, the projection of completed payments, the dispatcher that sends
 * a refund once the merchant wallet holds the funds, and the outcomes of those transfers.
 */
export const refundsService = defineService({
  name: 'refunds',
  migrations: refundsMigrations,
  loadConfig: loadRefundsConfig,
  build: ({ config, deps, eventsCommitted }, options: RefundsOptions) => {
    const context: RefundsContext = {
      db: deps.db,
      logger: deps.logger,
      refundWindowDays: config.REFUND_WINDOW_DAYS,
      now: () => new Date(),
      ...refundsRecording(eventsCommitted),
      payments: options.payments ?? paymentsApi(config),
    };
    const balances = options.balances ?? chainWatcherBalances(config);
    return {
      routes: refundsRoutes(context),
      consumers: { ...paymentProjectionHandlers(deps.logger), ...transferHandlers(context) },
      addressedAs: 'refund',
      workers: [dispatcherWorker(context, balances, dispatcherOptions(config))],
      context,
    };
  },
});
