import { EventTypes } from '@stablepay/contracts';
import type { EventHandler, EventHandlers } from '@stablepay/platform';
import type { NotifierContext } from '../context.js';
import { queueAccountEmail, queueWithdrawalAddressEmail } from '../mail/account-emails.js';
import { confirmMerchantEmail, upsertMerchant } from '../mail/mail-repo.js';
import { queueInvoiceEmail } from '../mail/payment-emails.js';
import { onWebhookEvent } from './webhook-event.js';

/** The merchant's name and address, for the notices sent to the merchant. */
const onMerchantCreated: EventHandler<typeof EventTypes.MerchantCreated> = async ({ data }, trx) => {
  await upsertMerchant(trx, {
    merchantId: data.merchantId,
    publicId: data.publicId,
    name: data.name,
    email: data.email,
    // Merchants announced before confirmation existed count as confirmed.
    emailConfirmed: data.emailConfirmed ?? true,
  });
};

/**
 * From now on the merchant is sent its notices. Before its merchant.created the notifier has nowhere
 * to record it: the message is retried until that arrives (the gateway publishes it first).
 */
const onMerchantEmailConfirmed: EventHandler<typeof EventTypes.MerchantEmailConfirmed> = async (
  { data },
  trx,
) => {
  if (!(await confirmMerchantEmail(trx, data.merchantId)))
    throw new Error(`merchant ${data.merchantId} not known yet; its confirmation waits for merchant.created`);
};

/** Every event the notifier consumes, with its handler: one list, registered at start. */
export const notifierConsumers = (ctx: NotifierContext): EventHandlers => {
  const deliver = onWebhookEvent(ctx);
  return {
    [EventTypes.MerchantCreated]: onMerchantCreated,
    [EventTypes.MerchantEmailConfirmed]: onMerchantEmailConfirmed,
    [EventTypes.AccountEmailRequested]: async (event, trx) =>
      void (await queueAccountEmail(ctx, trx, event, event.data)),
    [EventTypes.PaymentCompleted]: deliver,
    [EventTypes.PaymentFailed]: deliver,
    [EventTypes.RefundCreated]: deliver,
    [EventTypes.RefundCompleted]: deliver,
    [EventTypes.RefundFailed]: deliver,
    [EventTypes.InvoiceIssued]: async (event, trx) =>
      void (await queueInvoiceEmail(ctx, trx, event, event.data)),
    [EventTypes.WithdrawalAddressAdded]: async (event, trx) =>
      void (await queueWithdrawalAddressEmail(ctx, trx, event, { kind: 'added', data: event.data })),
    [EventTypes.WithdrawalAddressRemoved]: async (event, trx) =>
      void (await queueWithdrawalAddressEmail(ctx, trx, event, { kind: 'removed', data: event.data })),
  };
};
