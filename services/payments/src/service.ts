import { defineService } from '@stablepay/platform';
import type { FeeInputsSource } from './fee-quote/fee-inputs.js';
import type { GaslessRelay } from './gasless/relay-client.js';
import { gaslessRelayHandlers } from './gasless/relayed-handler.js';
import { gaslessRoutes } from './gasless/routes.js';
import { loadPaymentsConfig } from './config.js';
import { paymentsMigrations } from './db/migrations.js';
import { createPaymentsContext } from './context.js';
import { merchantProjectionHandlers } from './merchants/merchant-handlers.js';
import { verificationHandlers } from './payments/verification-handlers.js';
import { checkoutExpiryWorker } from './checkout/expiry-worker.js';
import { checkoutRoutes } from './checkout/routes.js';
import { feeQuoteRoutes } from './fee-quote/cctp-fee-route.js';
import { paymentRoutes } from './payments/routes.js';

export interface PaymentsOptions {
  /** Where fee quotes read gas and gas-coin prices; the chain-watcher's internal API by default. */
  feeInputs?: FeeInputsSource;
  /** The relay of gasless payments; the chain-watcher's internal API by default. */
  gaslessRelay?: GaslessRelay;
}

/**
 * Payments and checkout sessions: the catalogue's payments routes (api role); the merchant
 * projection, the chain-watcher's verdicts and relayed transactions, and the session expiry sweep
 * (worker role).
 */
export const paymentsService = defineService({
  name: 'payments',
  migrations: paymentsMigrations,
  loadConfig: loadPaymentsConfig,
  build: ({ config, deps, eventsCommitted }, options: PaymentsOptions) => {
    const context = createPaymentsContext(
      config,
      deps.db,
      eventsCommitted,
      options.feeInputs,
      options.gaslessRelay,
    );
    return {
      routes: {
        ...paymentRoutes(context),
        ...checkoutRoutes(context),
        ...feeQuoteRoutes(context),
        ...gaslessRoutes(context),
      },
      consumers: {
        ...merchantProjectionHandlers(),
        ...verificationHandlers(context, deps.logger),
        ...gaslessRelayHandlers(deps.logger),
      },
      workers: [
        checkoutExpiryWorker(context, { intervalMs: config.CHECKOUT_EXPIRY_SWEEP_MS, logger: deps.logger }),
      ],
      context,
    };
  },
});
