import { EventTypes, type IntegrationEvent } from '@stablepay/contracts';
import type { EventHandlers } from '@stablepay/platform';
import { auditedAs } from './event-audit.js';

type RefundEvent = IntegrationEvent<typeof EventTypes.RefundCreated | typeof EventTypes.RefundCancelled>;

const refundEntry = ({ data }: RefundEvent) => ({
  merchantId: data.merchant_id,
  details: {
    refundId: data.refund_id,
    paymentId: data.payment_id,
    amount: data.amount,
    currency: data.currency,
  },
});

/**
 * Money leaving the merchant wallet is recorded in the merchant's audit log as the owning service
 * announces it, whoever asked (the dashboard or a server with an API key).
 */
export const moneyMovementAuditConsumers: EventHandlers = {
  [EventTypes.RefundCreated]: auditedAs<typeof EventTypes.RefundCreated>('refund.created', (event) => {
    const entry = refundEntry(event);
    return { ...entry, details: { ...entry.details, reason: event.data.reason } };
  }),
  [EventTypes.RefundCancelled]: auditedAs<typeof EventTypes.RefundCancelled>('refund.cancelled', refundEntry),
  [EventTypes.WithdrawalRequested]: auditedAs<typeof EventTypes.WithdrawalRequested>(
    'withdrawal.requested',
    ({ data }) => ({
      merchantId: data.merchantId,
      details: {
        withdrawalId: data.withdrawalId,
        amount: data.amount,
        currency: data.currency,
        destinationAddress: data.destinationAddress,
      },
    }),
  ),
};
