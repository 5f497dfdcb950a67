import {
  blockchainDisplayName,
  formatDecimal,
  formatTimestamp,
  type InvoiceIssuedData,
  type Language,
  type PaymentWebhookData,
  type RefundWebhookData,
  type WithdrawalAddressAddedData,
  type WithdrawalAddressRemovedData,
} from '@stablepay/contracts';
import { EMAIL_WORDS, type EmailWords } from './email-words/index.js';
import { INVOICE_EMAIL_WORDS } from './invoice-email-words.js';
import { renderMessage, type MessageContent, type RenderedEmail } from './layout.js';

export const TEMPLATES = {
  paymentReceipt: 'payment_receipt',
  paymentReceived: 'payment_received',
  refundCompleted: 'refund_completed',
  endpointDisabled: 'endpoint_disabled',
  invoiceIssued: 'invoice_issued',
  emailConfirmation: 'email_confirmation',
  registrationAttempted: 'registration_attempted',
  withdrawalAddressAdded: 'withdrawal_address_added',
  withdrawalAddressRemoved: 'withdrawal_address_removed',
} as const;
export type TemplateName = (typeof TEMPLATES)[keyof typeof TEMPLATES];

/** Money and moments as the reader writes them: "1.234,500000 USDC", "27.11.2026 13:05 UTC" (de). */
const money = (amount: string, currency: string, language: Language) =>
  `${formatDecimal(amount, language)} ${currency}`;
const when = (iso: string, language: Language) => formatTimestamp(iso, language);
/** A chain as people call it ("Base", not `BASE`). */
const network = (name: string | null | undefined) => (name ? blockchainDisplayName(name) : name);
const chainOf = (p: PaymentWebhookData) =>
  p.destination_chain && p.destination_chain !== p.source_chain
    ? `${network(p.source_chain) ?? '?'} → ${network(p.destination_chain)}`
    : network(p.source_chain);

/** Every template's input names the reader's language; English when it is not known. */
interface InLanguage {
  language: Language;
}

/**
 * The words of an e-mail to the customer, the merchant it names (in the e-mail's words when the
 * merchant's name is not known) and the amount it is about, as the reader writes it.
 */
const customerWords = (
  p: InLanguage & { merchantName: string | undefined },
  email: 'receipt' | 'refund',
  sum: { amount: string; currency: string },
) => {
  const w = EMAIL_WORDS[p.language];
  return {
    w,
    merchant: p.merchantName ?? w[email].theMerchant,
    amount: money(sum.amount, sum.currency, p.language),
  };
};

/** To the customer, on payment.completed, in the language of the checkout page they paid on. */
export const paymentReceipt = (
  p: InLanguage & { payment: PaymentWebhookData; merchantName: string | undefined; completedAt: string },
): RenderedEmail => {
  const { w, merchant: to, amount } = customerWords(p, 'receipt', p.payment);
  return renderMessage({
    lang: w.lang,
    subject: w.receipt.subject(amount, to),
    heading: w.receipt.heading,
    intro: [w.receipt.intro(amount, to)],
    details: [
      [w.labels.amount, amount],
      [w.labels.paidTo, p.merchantName],
      [w.labels.reference, p.payment.reference],
      [w.labels.network, chainOf(p.payment)],
      [w.labels.transaction, p.payment.tx_hash],
      [w.labels.from, p.payment.from_address],
      [w.labels.paymentId, p.payment.payment_id],
      [w.labels.date, when(p.completedAt, p.language)],
    ],
    outro: [w.receipt.outro],
  });
};

/** To the merchant, on payment.completed, in the merchant's language. */
export const paymentReceived = (
  p: InLanguage & { payment: PaymentWebhookData; merchantName: string; completedAt: string },
): RenderedEmail => {
  const w = EMAIL_WORDS[p.language];
  const amount = money(p.payment.amount, p.payment.currency, p.language);
  return renderMessage({
    lang: w.lang,
    subject: w.received.subject(amount),
    heading: w.received.heading,
    intro: [w.received.intro(p.merchantName, amount)],
    details: [
      [w.labels.amount, amount],
      [w.labels.reference, p.payment.reference],
      [w.labels.customer, p.payment.customer_email],
      [w.labels.network, chainOf(p.payment)],
      [w.labels.transaction, p.payment.tx_hash],
      [w.labels.paymentId, p.payment.payment_id],
      [w.labels.date, when(p.completedAt, p.language)],
    ],
  });
};

/** To the customer, on refund.completed (address and language from the payment's completion). */
export const refundCompleted = (
  p: InLanguage & { refund: RefundWebhookData; merchantName: string | undefined; completedAt: string },
): RenderedEmail => {
  const { w, merchant: from, amount } = customerWords(p, 'refund', p.refund);
  return renderMessage({
    lang: w.lang,
    subject: w.refund.subject(amount),
    heading: w.refund.heading,
    intro: [w.refund.intro(from, amount, network(p.refund.blockchain) ?? p.refund.blockchain)],
    details: [
      [w.labels.amount, amount],
      [w.labels.network, network(p.refund.blockchain)],
      [w.labels.sentTo, p.refund.destination_address],
      [w.labels.transaction, p.refund.tx_hash],
      [w.labels.refundId, p.refund.refund_id],
      [w.labels.paymentId, p.refund.payment_id],
      [w.labels.date, when(p.completedAt, p.language)],
    ],
  });
};

/** To the merchant, when an endpoint is disabled after consecutive failures. */
export const endpointDisabled = (
  p: InLanguage & {
    merchantName: string;
    endpointId: string;
    url: string;
    failures: number;
    lastError: string | null;
    disabledAt: string;
  },
): RenderedEmail => {
  const w = EMAIL_WORDS[p.language];
  return renderMessage({
    lang: w.lang,
    subject: w.endpointDisabled.subject(p.failures),
    heading: w.endpointDisabled.heading,
    intro: [w.endpointDisabled.intro(p.merchantName, p.failures)],
    details: [
      [w.labels.endpoint, p.url],
      [w.labels.endpointId, p.endpointId],
      [w.labels.lastError, p.lastError],
      [w.labels.disabledAt, when(p.disabledAt, p.language)],
    ],
    outro: w.endpointDisabled.outro,
  });
};

/**
 * To the merchant, on invoice.issued: the invoice for the fee of a withdrawal, its PDF attached, in
 * the invoice's language and number format.
 */
export const invoiceIssued = (p: { invoice: InvoiceIssuedData; merchantName: string }): RenderedEmail => {
  const i = p.invoice;
  const w = INVOICE_EMAIL_WORDS[i.language];
  const amount = (value: string, currency: string) => money(value, currency, i.language);
  const title = `${i.rectifiesInvoiceId !== null ? w.correctiveInvoice : w.invoice} ${i.invoiceNumber}`;
  return renderMessage({
    lang: i.language,
    subject: `${title}: ${w.subjectFee(amount(i.serviceFee, i.currency))}`,
    heading: title,
    intro: [
      i.rectifiesInvoiceId !== null
        ? w.correctiveIntro(p.merchantName)
        : w.intro(p.merchantName, amount(i.grossAmount, i.currency)),
    ],
    details: [
      [w.invoiceNumber, i.invoiceNumber],
      [w.withdrawn, amount(i.grossAmount, i.currency)],
      [w.serviceFee, `${amount(i.serviceFee, i.currency)} (${amount(i.serviceFeeEur, 'EUR')})`],
      [w.sentToYou, amount(i.netAmount, i.currency)],
      [w.network, network(i.blockchain)],
      [w.withdrawalId, i.withdrawalId],
      [w.issued, when(i.issuedAt, i.language)],
    ],
    outro: [w.outro],
  });
};

/**
 * Both account e-mails carry one link, behind a button and written out beside it, and name the
 * account they concern first among their details.
 */
const accountLinkEmail = (
  w: EmailWords,
  words: EmailWords['confirmation'] | EmailWords['registration'],
  p: { merchantName: string; link: string },
  moreDetails: MessageContent['details'] = [],
): RenderedEmail =>
  renderMessage({
    lang: w.lang,
    subject: words.subject,
    heading: words.heading,
    intro: words.intro(p.merchantName),
    details: [[w.labels.account, p.merchantName], ...moreDetails],
    action: { label: words.action, url: p.link, orOpen: w.orOpen },
    outro: [words.outro].flat(),
  });

/** To a new account's address: the link that confirms it (nothing else is sent to it before). */
export const emailConfirmation = (
  p: InLanguage & { merchantName: string; link: string; expiresAt: string },
): RenderedEmail => {
  const w = EMAIL_WORDS[p.language];
  return accountLinkEmail(w, w.confirmation, p, [[w.labels.linkValidUntil, when(p.expiresAt, p.language)]]);
};

/** To a registered address, when someone registers again with it (the answer to them reveals nothing). */
export const registrationAttempted = (
  p: InLanguage & { merchantName: string; link: string },
): RenderedEmail => {
  const w = EMAIL_WORDS[p.language];
  return accountLinkEmail(w, w.registration, p);
};

/**
 * Both withdrawal-address e-mails name the address, how the change was confirmed and when it
 * happened, in that order; the added one also says from when the address can be used.
 */
const withdrawalAddressEmail = (
  w: EmailWords,
  a: WithdrawalAddressAddedData | WithdrawalAddressRemovedData,
  words: Pick<EmailWords['addressAdded'], 'subject' | 'heading' | 'outro'>,
  intro: string,
  moments: { usableFrom?: string; happened: [string, string] },
): RenderedEmail =>
  renderMessage({
    lang: w.lang,
    subject: words.subject(a.label),
    heading: words.heading,
    intro: [intro],
    details: [
      [w.labels.label, a.label],
      [w.labels.address, a.address],
      [w.labels.usableFrom, moments.usableFrom],
      [w.labels.confirmedWith, w.stepUp[a.stepUp]],
      moments.happened,
    ],
    outro: [words.outro],
  });

/**
 * To the merchant, on withdrawal_address.added: the one chance to stop a stranger's address before
 * its hold ends, so it says when that is and what to do.
 */
export const withdrawalAddressAdded = (
  p: InLanguage & { address: WithdrawalAddressAddedData; merchantName: string },
): RenderedEmail => {
  const a = p.address;
  const w = EMAIL_WORDS[p.language];
  const usableFrom = when(a.usableFrom, p.language);
  return withdrawalAddressEmail(w, a, w.addressAdded, w.addressAdded.intro(p.merchantName, usableFrom), {
    usableFrom,
    happened: [w.labels.added, when(a.addedAt, p.language)],
  });
};

/** To the merchant, on withdrawal_address.removed. */
export const withdrawalAddressRemoved = (
  p: InLanguage & { address: WithdrawalAddressRemovedData; merchantName: string },
): RenderedEmail => {
  const a = p.address;
  const w = EMAIL_WORDS[p.language];
  return withdrawalAddressEmail(w, a, w.addressRemoved, w.addressRemoved.intro(p.merchantName), {
    happened: [w.labels.removed, when(a.removedAt, p.language)],
  });
};
