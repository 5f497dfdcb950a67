import type { Knex } from 'knex';
import type { ChainDirectory } from './chains.js';

/** Everything the domain operations need, passed explicitly. */
export interface PaymentsContext {
  db: Knex;
  chains: ChainDirectory;
  /** The hosted checkout page; sessions link to `${checkoutUrl}?session=<id>`. */
  checkoutUrl: string;
  /** `cs_live_` or `cs_test_` */
  sessionIdPrefix: string;
  /** When false, return and cancel URLs must be https. */
  allowInsecureUrls: boolean;
  /** Called after a transaction that wrote outbox events has committed (wakes the relay). */
  eventsCommitted: () => void;
}
