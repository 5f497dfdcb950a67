import type { Knex } from 'knex';
import { openText } from '@stablepay/platform';
import type {
  AccountEmailRequestedData,
  WithdrawalAddressAddedData,
  WithdrawalAddressRemovedData,
} from '@stablepay/contracts';
import type { NotifierContext } from '../context.js';
import { findMerchant } from './mail-repo.js';
import { merchantRecipient, normaliseAddress, queueNotices, type Notice } from './notices.js';
import {
  TEMPLATES,
  emailConfirmation,
  endpointDisabled,
  registrationAttempted,
  withdrawalAddressAdded,
  withdrawalAddressRemoved,
} from './templates.js';

/**
 * The endpoint-disabled notice, keyed by the attempt whose failure disabled it: one notice per
 * time the endpoint is disabled, never two for the same.
 */
export const queueDisabledNotice = async (
  ctx: NotifierContext,
  trx: Knex.Transaction,
  d: {
    attemptId: string;
    merchantId: string;
    endpointId: string;
    url: string;
    failures: number;
    lastError: string | null;
  },
): Promise<number> => {
  const merchant = await findMerchant(trx, d.merchantId);
  const recipient = merchantRecipient(ctx, d.merchantId, merchant, 'endpoint-disabled notice');
  if (!merchant || !recipient) return 0;
  const content = endpointDisabled({
    merchantName: merchant.name,
    endpointId: d.endpointId,
    url: d.url,
    failures: d.failures,
    lastError: d.lastError,
    disabledAt: new Date().toISOString(),
    language: merchant.language ?? 'en',
  });
  return queueNotices(ctx, trx, { eventId: d.attemptId, merchantId: d.merchantId }, [
    { template: TEMPLATES.endpointDisabled, recipient, content },
  ]);
};

/**
 * account.email_requested: the gateway's account e-mails, to the address the account registered
 * with. These alone go to an unconfirmed address: one is what confirms it.
 */
export const queueAccountEmail = async (
  ctx: NotifierContext,
  trx: Knex.Transaction,
  event: { id: string },
  data: AccountEmailRequestedData,
): Promise<number> => {
  const recipient = normaliseAddress(data.email);
  if (!recipient) {
    ctx.logger.warn('account e-mail address unusable; not sent', { merchantId: data.merchantId });
    return 0;
  }
  const notice: Notice =
    data.kind === 'email_confirmation'
      ? {
          template: TEMPLATES.emailConfirmation,
          recipient,
          content: emailConfirmation({
            merchantName: data.merchantName,
            link: openText(ctx.internalSecrets, data.sealedLink),
            expiresAt: data.expiresAt,
            language: data.language ?? 'en',
          }),
        }
      : {
          template: TEMPLATES.registrationAttempted,
          recipient,
          content: registrationAttempted({
            merchantName: data.merchantName,
            link: data.link,
            language: data.language ?? 'en',
          }),
        };
  return queueNotices(ctx, trx, { eventId: event.id, merchantId: data.merchantId }, [notice]);
};

type AddressChange =
  | { kind: 'added'; data: WithdrawalAddressAddedData }
  | { kind: 'removed'; data: WithdrawalAddressRemovedData };

/**
 * withdrawal_address.added / .removed: a notice to the merchant, so a change they did not make is
 * seen (and, for an added address, undone within its hold). One message per event.
 */
export const queueWithdrawalAddressEmail = async (
  ctx: NotifierContext,
  trx: Knex.Transaction,
  event: { id: string },
  change: AddressChange,
): Promise<number> => {
  const merchantId = change.data.merchantId;
  const merchant = await findMerchant(trx, merchantId);
  const recipient = merchantRecipient(ctx, merchantId, merchant, 'withdrawal address notice');
  if (!merchant || !recipient) return 0;
  const language = merchant.language ?? 'en';
  const notice: Notice =
    change.kind === 'added'
      ? {
          template: TEMPLATES.withdrawalAddressAdded,
          recipient,
          content: withdrawalAddressAdded({ address: change.data, merchantName: merchant.name, language }),
        }
      : {
          template: TEMPLATES.withdrawalAddressRemoved,
          recipient,
          content: withdrawalAddressRemoved({ address: change.data, merchantName: merchant.name, language }),
        };
  return queueNotices(ctx, trx, { eventId: event.id, merchantId }, [notice]);
};
