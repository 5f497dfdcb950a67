import { EventTypes, Uuid } from '@stablepay/contracts';
import type { EventHandlers } from '@stablepay/platform';
import type { RefundsContext } from '../context.js';
import { completeRefundIn, failRefundIn, recordSubmittedIn } from './transfer-outcomes.js';

/**
 * Outcomes of the transfers this service requested: they are addressed to it by routing key
 * (`addressedAs: 'refund'`), so every one is a refund's and its idempotency key is the refund id.
 * A key that is no refund id could never match a refund; it is logged and dropped, not retried.
 */
export const transferHandlers = (ctx: RefundsContext): EventHandlers => {
  const refundIdOf = (type: string, idempotencyKey: string): string | undefined => {
    if (Uuid.safeParse(idempotencyKey).success) return idempotencyKey;
    ctx.logger.warn('refund transfer outcome with a key that is no refund id; dropped', {
      type,
      idempotencyKey,
    });
    return undefined;
  };
  return {
    [EventTypes.TransferSubmitted]: async ({ type, data }, trx) => {
      const refundId = refundIdOf(type, data.idempotencyKey);
      if (refundId) await recordSubmittedIn(ctx, trx, refundId, data.txHash);
    },
    [EventTypes.TransferConfirmed]: async ({ type, data }, trx) => {
      const refundId = refundIdOf(type, data.idempotencyKey);
      if (refundId) await completeRefundIn(ctx, trx, refundId, data.txHash);
    },
    [EventTypes.TransferFailed]: async ({ type, data }, trx) => {
      const refundId = refundIdOf(type, data.idempotencyKey);
      if (refundId) await failRefundIn(ctx, trx, refundId, data.reason, data.txHash);
    },
  };
};
