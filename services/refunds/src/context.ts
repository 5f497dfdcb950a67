import type { Knex } from 'knex';
import { eventWriter, type Logger } from '@stablepay/platform';
import type { PaymentSource } from './payments/payments-client.js';

/** Everything the domain operations need, passed explicitly. */
export interface RefundsContext {
  db: Knex;
  logger: Logger;
  /** Refunds are accepted up to this many days after the payment completed. */
  refundWindowDays: number;
  now: () => Date;
  /** Called after a transaction that wrote outbox events has committed (wakes the relay). */
  eventsCommitted: () => void;
  /** The payments service, asked about a payment whose payment.completed has not arrived yet. */
  payments: PaymentSource;
}

/** Every event this service publishes goes through this writer, in the transaction of its change. */
export const writeEvent = eventWriter('refunds');
