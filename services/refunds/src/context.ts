import type { Knex } from 'knex';
import { wakingEventWriter, type EventWriter, type Logger } from '@stablepay/platform';
import type { PaymentSource } from './payments/payments-client.js';
import { refundMachine, type RefundMachine } from './refunds/refund-machine.js';

/** How the service records what happens: events, and every refund status change. */
export interface RefundsRecording {
  /** Writes an integration event in the caller's transaction; the outbox relay wakes once it commits. */
  writeEvent: EventWriter;
  refunds: RefundMachine;
}

/** Everything the domain operations need, passed explicitly. */
export interface RefundsContext extends RefundsRecording {
  db: Knex;
  logger: Logger;
  /** Refunds are accepted up to this many days after the payment completed. */
  refundWindowDays: number;
  now: () => Date;
  /** The payments service, asked about a payment whose payment.completed has not arrived yet. */
  payments: PaymentSource;
}

/** The recording half of the context; `wake` is the outbox relay's (`ServiceKit.eventsCommitted`). */
export const refundsRecording = (wake: () => void): RefundsRecording => {
  const writeEvent = wakingEventWriter('refunds', wake);
  return { writeEvent, refunds: refundMachine(writeEvent) };
};
