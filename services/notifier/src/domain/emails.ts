import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { openText } from '@stablepay/platform';
import type {
  AccountEmailRequestedData,
  InvoiceIssuedData,
  PaymentWebhookData,
  RefundWebhookData,
  WithdrawalAddressAddedData,
  WithdrawalAddressRemovedData,
} from '@stablepay/contracts';
import {
  customerOfPayment,
  enqueueEmail,
  findMerchant,
  rememberCustomer,
  type AttachmentRef,
  type MerchantContact,
} from '../db/mail-repo.js';
import type { RenderedEmail } from '../mail/layout.js';
import {
  TEMPLATES,
  emailConfirmation,
  endpointDisabled,
  invoiceIssued,
  paymentReceipt,
  paymentReceived,
  refundCompleted,
  registrationAttempted,
  withdrawalAddressAdded,
  withdrawalAddressRemoved,
  type TemplateName,
} from '../mail/templates.js';
import type { NotifierContext } from './context.js';

/** The domain of MAIL_FROM, for Message-IDs (`StablePay <no-reply@pay.example>` → `pay.example`). */
export const messageIdDomain = (from: string): string => {
  const m = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from.trim());
  return m?.[1]?.toLowerCase() ?? 'stablepay.local';
};

/**
 * The same message always gets the same Message-ID, derived from its idempotency key: if a crash
 * between the server's acceptance and our mark makes us send it again, mail systems and readers
 * can recognise the copy.
 */
export const messageIdFor = (domain: string, eventId: string, template: string, recipient: string): string =>
  `<${createHash('sha256').update(`${eventId}\n${template}\n${recipient}`).digest('hex').slice(0, 40)}@${domain}>`;

const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;
/** Addresses are matched lower-cased; anything that is not plainly one address is not written to. */
const normaliseAddress = (value: string | null | undefined): string | undefined => {
  const v = value?.trim().toLowerCase();
  return v && v.length <= 254 && EMAIL.test(v) ? v : undefined;
};

/**
 * The merchant's address for a notice, or undefined (logged) when there is none, or when the address
 * is not confirmed yet: an unconfirmed address may not be the merchant's, so it is sent nothing.
 */
const merchantRecipient = (
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
interface Notice {
  template: TemplateName;
  recipient: string;
  content: RenderedEmail;
  attachment?: AttachmentRef;
}

/** Queues each notice once (unique on key, template and recipient); returns how many were new. */
const queueNotices = async (
  ctx: NotifierContext,
  trx: Knex.Transaction,
  key: { eventId: string; merchantId: string },
  notices: Notice[],
): Promise<number> => {
  let queued = 0;
  for (const n of notices) {
    const added = await enqueueEmail(trx, {
      eventId: key.eventId,
      template: n.template,
      recipient: n.recipient,
      merchantId: key.merchantId,
      subject: n.content.subject,
      text: n.content.text,
      html: n.content.html,
      messageId: messageIdFor(ctx.mail.messageIdDomain, key.eventId, n.template, n.recipient),
      attachment: n.attachment ?? null,
    });
    if (added) queued++;
  }
  return queued;
};

type EventRef = { id: string; merchantId: string; occurredAt: string };

/** payment.completed: a receipt to the customer, a notice to the merchant; remembers the customer. */
export const queuePaymentEmails = async (
  ctx: NotifierContext,
  trx: Knex.Transaction,
  event: EventRef,
  payment: PaymentWebhookData,
): Promise<number> => {
  const merchant = await findMerchant(trx, event.merchantId);
  const completedAt = new Date(event.occurredAt).toISOString();
  const notices: Notice[] = [];
  const customer = normaliseAddress(payment.customer_email);
  if (customer) {
    await rememberCustomer(trx, {
      paymentId: payment.payment_id,
      merchantId: event.merchantId,
      email: customer,
    });
    notices.push({
      template: TEMPLATES.paymentReceipt,
      recipient: customer,
      content: paymentReceipt({ payment, merchantName: merchant?.name, completedAt }),
    });
  }
  const merchantAddress = merchantRecipient(ctx, event.merchantId, merchant, 'payment notice');
  if (merchant && merchantAddress) {
    notices.push({
      template: TEMPLATES.paymentReceived,
      recipient: merchantAddress,
      content: paymentReceived({ payment, merchantName: merchant.name, completedAt }),
    });
  }
  return queueNotices(ctx, trx, { eventId: event.id, merchantId: event.merchantId }, notices);
};

/** refund.completed: a notice to the customer whose payment it refunds, when we know the address. */
export const queueRefundEmail = async (
  ctx: NotifierContext,
  trx: Knex.Transaction,
  event: EventRef,
  refund: RefundWebhookData,
): Promise<number> => {
  const customer = normaliseAddress(await customerOfPayment(trx, event.merchantId, refund.payment_id));
  if (!customer) return 0;
  const merchant = await findMerchant(trx, event.merchantId);
  const content = refundCompleted({
    refund,
    merchantName: merchant?.name,
    completedAt: new Date(event.occurredAt).toISOString(),
  });
  return queueNotices(ctx, trx, { eventId: event.id, merchantId: event.merchantId }, [
    { template: TEMPLATES.refundCompleted, recipient: customer, content },
  ]);
};

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
  });
  return queueNotices(ctx, trx, { eventId: d.attemptId, merchantId: d.merchantId }, [
    { template: TEMPLATES.endpointDisabled, recipient, content },
  ]);
};

/**
 * invoice.issued: the invoice to the merchant, its PDF attached (fetched from the invoicing service
 * when the message is sent). One message per invoice: the event id keys it.
 */
export const queueInvoiceEmail = async (
  ctx: NotifierContext,
  trx: Knex.Transaction,
  event: { id: string },
  invoice: InvoiceIssuedData,
): Promise<number> => {
  const merchant = await findMerchant(trx, invoice.merchantId);
  const recipient = merchantRecipient(ctx, invoice.merchantId, merchant, `invoice ${invoice.invoiceNumber}`);
  if (!merchant || !recipient) return 0;
  return queueNotices(ctx, trx, { eventId: event.id, merchantId: invoice.merchantId }, [
    {
      template: TEMPLATES.invoiceIssued,
      recipient,
      content: invoiceIssued({ invoice, merchantName: merchant.name }),
      attachment: { kind: 'invoice_pdf', id: invoice.invoiceId, fileName: invoice.fileName },
    },
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
          }),
        }
      : {
          template: TEMPLATES.registrationAttempted,
          recipient,
          content: registrationAttempted({ merchantName: data.merchantName, link: data.link }),
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
  const notice: Notice =
    change.kind === 'added'
      ? {
          template: TEMPLATES.withdrawalAddressAdded,
          recipient,
          content: withdrawalAddressAdded({ address: change.data, merchantName: merchant.name }),
        }
      : {
          template: TEMPLATES.withdrawalAddressRemoved,
          recipient,
          content: withdrawalAddressRemoved({ address: change.data, merchantName: merchant.name }),
        };
  return queueNotices(ctx, trx, { eventId: event.id, merchantId }, [notice]);
};
