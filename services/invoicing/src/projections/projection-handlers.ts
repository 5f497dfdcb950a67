import { EventTypes, type RefundEventData } from '@stablepay/contracts';
import type { EventHandler, EventHandlers } from '@stablepay/platform';
import type { Knex } from 'knex';
import { confirmMerchantEmail, upsertMerchant } from './merchants-repo.js';
import { closeRefund, openRefund } from './refunds-in-flight-repo.js';

/** merchant.created: the name (and e-mail) an invoice falls back to before a billing profile exists. */
const onMerchantCreated: EventHandler<typeof EventTypes.MerchantCreated> = async ({ data }, trx) => {
  await upsertMerchant(trx, {
    merchantId: data.merchantId,
    publicId: data.publicId,
    name: data.name,
    email: data.email,
    blockchain: data.blockchain,
    // Merchants announced before confirmation existed count as confirmed.
    emailConfirmed: data.emailConfirmed ?? true,
  });
};

/**
 * The merchant may withdraw from now on. Before its merchant.created there is no row to mark: the
 * message is retried until that arrives (the gateway publishes it first).
 */
const onMerchantEmailConfirmed: EventHandler<typeof EventTypes.MerchantEmailConfirmed> = async (
  { data },
  trx,
) => {
  if (!(await confirmMerchantEmail(trx, data.merchantId)))
    throw new Error(`merchant ${data.merchantId} not known yet; its confirmation waits for merchant.created`);
};

const closing =
  (outcome: 'completed' | 'failed' | 'cancelled') =>
  async ({ data }: { data: RefundEventData }, trx: Knex.Transaction) =>
    closeRefund(trx, data, outcome);

/**
 * Refunds the merchant wallet may still send, so a withdrawal never takes funds a refund is waiting
 * for: open from refund.created, closed by its end. The events may arrive in any order; an end seen
 * first closes the refund for good.
 */
export const projectionHandlers = (): EventHandlers => ({
  [EventTypes.MerchantCreated]: onMerchantCreated,
  [EventTypes.MerchantEmailConfirmed]: onMerchantEmailConfirmed,
  [EventTypes.RefundCreated]: async ({ data }, trx) => openRefund(trx, data),
  [EventTypes.RefundCompleted]: closing('completed'),
  [EventTypes.RefundFailed]: closing('failed'),
  [EventTypes.RefundCancelled]: closing('cancelled'),
});
