import {
  EventTypes,
  TransferConfirmedData,
  TransferFailedData,
  TransferSubmittedData,
  Uuid,
} from '@stablepay/contracts';
import type { Logger, TransactionalHandler } from '@stablepay/platform';
import { completeRefundIn, failRefundIn, recordSubmittedIn } from '../domain/transfer-outcomes.js';

type TransferOutcome = { idempotencyKey: string; purpose: string };

/**
 * Transfer outcomes from the chain-watcher. Withdrawals and CCTP forwards travel on the same
 * routing keys; only `purpose: 'refund'` is ours, and its idempotency key is the refund id.
 * Everything else is acknowledged (and recorded in the inbox) without effect.
 */
export const transferHandlers = (logger: Logger): Record<string, TransactionalHandler> => {
  const refundIdOf = (type: string, d: TransferOutcome): string | undefined => {
    if (d.purpose !== 'refund') return undefined;
    if (!Uuid.safeParse(d.idempotencyKey).success) {
      logger.warn('refund transfer outcome with a key that is no refund id; dropped', {
        type,
        idempotencyKey: d.idempotencyKey,
      });
      return undefined;
    }
    return d.idempotencyKey;
  };
  return {
    [EventTypes.TransferSubmitted]: async (event, trx) => {
      const d = TransferSubmittedData.parse(event.data);
      const refundId = refundIdOf(event.type, d);
      if (refundId) await recordSubmittedIn(trx, logger, refundId, d.txHash);
    },
    [EventTypes.TransferConfirmed]: async (event, trx) => {
      const d = TransferConfirmedData.parse(event.data);
      const refundId = refundIdOf(event.type, d);
      if (refundId) await completeRefundIn(trx, logger, refundId, d.txHash);
    },
    [EventTypes.TransferFailed]: async (event, trx) => {
      const d = TransferFailedData.parse(event.data);
      const refundId = refundIdOf(event.type, d);
      if (refundId) await failRefundIn(trx, logger, refundId, d.reason, d.txHash);
    },
  };
};
