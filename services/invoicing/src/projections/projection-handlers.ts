import { EventTypes, type RefundEventData } from '@stablepay/contracts';
import type { EventHandlers } from '@stablepay/platform';
import type { Knex } from 'knex';
import { merchants } from './merchants-repo.js';
import { closeRefund, openRefund } from './refunds-in-flight-repo.js';

const closing =
  (outcome: 'completed' | 'failed' | 'cancelled') =>
  async ({ data }: { data: RefundEventData }, trx: Knex.Transaction) =>
    closeRefund(trx, data, outcome);

/**
 * The merchants (see merchants-repo.ts), and the refunds the merchant wallet may still send, so a
 * withdrawal never takes funds a refund is waiting for: open from refund.created, closed by its end. The events may arrive in any order; an end seen
 * first closes the refund for good.
 */
export const projectionHandlers = (): EventHandlers => ({
  ...merchants.handlers,
  [EventTypes.RefundCreated]: async ({ data }, trx) => openRefund(trx, data),
  [EventTypes.RefundCompleted]: closing('completed'),
  [EventTypes.RefundFailed]: closing('failed'),
  [EventTypes.RefundCancelled]: closing('cancelled'),
});
