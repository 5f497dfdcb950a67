import { EventTypes } from '@stablepay/contracts';
import type { EventHandler } from '@stablepay/platform';
import { appendAudit } from './audit-log-repo.js';

/**
 * Money leaving the merchant wallet is recorded in the merchant's audit log as the owning service
 * announces it, whoever asked (the dashboard or a server with an API key). Each event is handled
 * once (the platform's inbox), so each action has one entry.
 */
export const onRefundCreated: EventHandler<typeof EventTypes.RefundCreated> = async (event, trx) => {
  const { data } = event;
  await appendAudit(trx, {
    action: 'refund.created',
    merchantId: data.merchant_id,
    details: {
      refundId: data.refund_id,
      paymentId: data.payment_id,
      amount: data.amount,
      currency: data.currency,
      reason: data.reason,
    },
  });
};

export const onRefundCancelled: EventHandler<typeof EventTypes.RefundCancelled> = async (event, trx) => {
  const { data } = event;
  await appendAudit(trx, {
    action: 'refund.cancelled',
    merchantId: data.merchant_id,
    details: {
      refundId: data.refund_id,
      paymentId: data.payment_id,
      amount: data.amount,
      currency: data.currency,
    },
  });
};

export const onWithdrawalRequested: EventHandler<typeof EventTypes.WithdrawalRequested> = async (
  event,
  trx,
) => {
  const { data } = event;
  await appendAudit(trx, {
    action: 'withdrawal.requested',
    merchantId: data.merchantId,
    details: {
      withdrawalId: data.withdrawalId,
      amount: data.amount,
      currency: data.currency,
      destinationAddress: data.destinationAddress,
    },
  });
};
