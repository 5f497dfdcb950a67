import type { Knex } from 'knex';
import { writeBatched, type MerchantContact } from '@stablepay/platform';
import type { NotifierContext } from '../context.js';
import type { RenderedEmail } from './layout.js';
import { enqueueEmails, type AttachmentRef } from './mail-repo.js';
import { messageIdFor } from './message-ids.js';
import type { TemplateName } from './templates.js';

const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;
/** Addresses are matched lower-cased; anything that is not plainly one address is not written to. */
export const normaliseAddress = (value: string | null | undefined): string | undefined => {
  const v = value?.trim().toLowerCase();
  return v && v.length <= 254 && EMAIL.test(v) ? v : undefined;
};

/**
 * The merchant's address for a notice, or undefined (logged) when there is none, or when the address
 * is not confirmed yet: an unconfirmed address may not be the merchant's, so it is sent nothing.
 */
export const merchantRecipient = (
  ctx: NotifierContext,
  merchantId: string,
  merchant: MerchantContact | undefined,
  notice: string,
): string | undefined => {
  const address = normaliseAddress(merchant?.email);
  if (!merchant || !address) {
    ctx.logger.warn(`no merchant e-mail known; ${notice} not sent`, { merchantId });
    return undefined;
  }
  if (!merchant.emailConfirmed) {
    ctx.logger.info(`merchant e-mail not confirmed; ${notice} not sent`, { merchantId });
    return undefined;
  }
  return address;
};

/** One message to queue for an event (or an attempt, for the endpoint-disabled notice). */
export interface Notice {
  template: TemplateName;
  recipient: string;
  content: RenderedEmail;
  attachment?: AttachmentRef;
}

/**
 * Queues each notice once (unique on key, template and recipient); in a consumer's batch, with the
 * other units' messages before it commits. Returns how many it handed over: a notice already queued
 * for the same key is ignored by that write.
 */
export const queueNotices = async (
  ctx: NotifierContext,
  trx: Knex.Transaction,
  key: { eventId: string; merchantId: string },
  notices: Notice[],
): Promise<number> => {
  if (notices.length === 0) return 0;
  await writeBatched(
    trx,
    enqueueEmails,
    notices.map((n) => ({
      eventId: key.eventId,
      template: n.template,
      recipient: n.recipient,
      merchantId: key.merchantId,
      subject: n.content.subject,
      text: n.content.text,
      html: n.content.html,
      messageId: messageIdFor(ctx.mail.messageIdDomain, key.eventId, n.template, n.recipient),
      attachment: n.attachment ?? null,
    })),
  );
  return notices.length;
};

export type EventRef = { id: string; merchantId: string; occurredAt: string };
