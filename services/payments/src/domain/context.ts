import type { Knex } from 'knex';
import type { ChainRegistry } from '@stablepay/contracts';
import { eventWriter } from '@stablepay/platform';
import type { PaymentsConfig } from '../config.js';

/** Everything the domain operations need, passed explicitly. */
export interface PaymentsContext {
  db: Knex;
  /** The chains payments may come from; a chain id's name is read from here. */
  chains: ChainRegistry;
  /** The hosted checkout page; sessions link to `${checkoutUrl}?session=<id>`. */
  checkoutUrl: string;
  /** `cs_live_` or `cs_test_` */
  sessionIdPrefix: string;
  /** When false, return and cancel URLs must be https. */
  allowInsecureUrls: boolean;
  /** Called after a transaction that wrote outbox events has committed (wakes the relay). */
  eventsCommitted: () => void;
}

export const createPaymentsContext = (
  config: PaymentsConfig,
  db: Knex,
  eventsCommitted: () => void,
): PaymentsContext => ({
  db,
  chains: config.chainRegistry,
  checkoutUrl: config.CHECKOUT_URL,
  sessionIdPrefix: `cs_${config.ENVIRONMENT}_`,
  allowInsecureUrls: config.ALLOW_INSECURE_URLS,
  eventsCommitted,
});

/** Writes the service's integration events to the outbox, in the caller's transaction. */
export const writeEvent = eventWriter('payments');
