import { EventTypes } from '@stablepay/contracts';
import type { EventHandlers } from '@stablepay/platform';
import type { InvoicingContext } from '../context.js';
import { recordConfirmedIn, recordFailedIn, recordSubmittedIn } from './transfer-outcomes.js';
import { parseTransferKey } from './withdrawal-rules.js';

/**
 * Outcomes of the transfers this service requested: addressed to it by routing key
 * (`addressedAs: 'withdrawal'`), each with the key `withdrawal:<id>:<net|fee>` it was asked under. A
 * key of another form could never match a withdrawal; it is logged and dropped, not retried.
 */
export const transferHandlers = (ctx: InvoicingContext): EventHandlers => {
  const keyOf = (type: string, idempotencyKey: string) => {
    const parsed = parseTransferKey(idempotencyKey);
    if (!parsed)
      ctx.logger.warn('withdrawal transfer outcome with a foreign key; dropped', { type, idempotencyKey });
    return parsed;
  };
  return {
    [EventTypes.TransferSubmitted]: async ({ type, data }, trx) => {
      const key = keyOf(type, data.idempotencyKey);
      if (key) await recordSubmittedIn(ctx, trx, key.withdrawalId, key.leg, data.txHash);
    },
    [EventTypes.TransferConfirmed]: async ({ type, data }, trx) => {
      const key = keyOf(type, data.idempotencyKey);
      if (key) await recordConfirmedIn(ctx, trx, key.withdrawalId, key.leg, data.txHash);
    },
    [EventTypes.TransferFailed]: async ({ type, data }, trx) => {
      const key = keyOf(type, data.idempotencyKey);
      if (key) await recordFailedIn(ctx, trx, key.withdrawalId, key.leg, data.reason, data.txHash);
    },
  };
};
