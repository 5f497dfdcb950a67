import { EventTypes } from '@stablepay/contracts';
import type { EventHandlers } from '@stablepay/platform';
import type { NotifierContext } from '../context.js';
import { queueAccountEmail, queueWithdrawalAddressEmail } from '../mail/account-emails.js';
import { merchants } from '../mail/mail-repo.js';
import { onWebhookEvent } from './webhook-event.js';

/** Every event the notifier consumes, with its handler: one list, registered at start. */
export const notifierConsumers = (ctx: NotifierContext): EventHandlers => {
  const deliver = onWebhookEvent(ctx);
  return {
    ...merchants.handlers,
    [EventTypes.AccountEmailRequested]: async (event, trx) =>
      void (await queueAccountEmail(ctx, trx, event, event.data)),
    [EventTypes.PaymentCompleted]: deliver,
    [EventTypes.PaymentFailed]: deliver,
    [EventTypes.RefundCreated]: deliver,
    [EventTypes.RefundCompleted]: deliver,
    [EventTypes.RefundFailed]: deliver,
    // Extensions: subscribable like the spec's five (invoice.issued also sends the invoice e-mail).
    [EventTypes.CheckoutSessionCompleted]: deliver,
    [EventTypes.CheckoutSessionExpired]: deliver,
    [EventTypes.WithdrawalCompleted]: deliver,
    [EventTypes.WithdrawalFailed]: deliver,
    [EventTypes.InvoiceIssued]: deliver,
    [EventTypes.WithdrawalAddressAdded]: async (event, trx) =>
      void (await queueWithdrawalAddressEmail(ctx, trx, event, { kind: 'added', data: event.data })),
    [EventTypes.WithdrawalAddressRemoved]: async (event, trx) =>
      void (await queueWithdrawalAddressEmail(ctx, trx, event, { kind: 'removed', data: event.data })),
  };
};
