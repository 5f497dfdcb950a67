import {
  blockchainDisplayName,
  formatDecimal,
  type InvoiceIssuedData,
  type PaymentWebhookData,
  type RefundWebhookData,
  type WithdrawalAddressAddedData,
  type WithdrawalAddressRemovedData,
} from '@stablepay/contracts';
import { INVOICE_EMAIL_WORDS } from './invoice-email-words.js';
import { renderMessage, type RenderedEmail } from './layout.js';

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

const money = (amount: string, currency: string) => `${amount} ${currency}`;
/** A chain as people call it ("Base", not `BASE`). */
const network = (name: string | null | undefined) => (name ? blockchainDisplayName(name) : name);
const chainOf = (p: PaymentWebhookData) =>
  p.destination_chain && p.destination_chain !== p.source_chain
    ? `${network(p.source_chain) ?? '?'} → ${network(p.destination_chain)}`
    : network(p.source_chain);

/** To the customer, on payment.completed. */
export const paymentReceipt = (p: {
  payment: PaymentWebhookData;
  merchantName: string | undefined;
  completedAt: string;
}): RenderedEmail => {
  const to = p.merchantName ?? 'the merchant';
  return renderMessage({
    subject: `Receipt: ${money(p.payment.amount, p.payment.currency)} paid to ${to}`,
    heading: 'Payment receipt',
    intro: [`Your payment of ${money(p.payment.amount, p.payment.currency)} to ${to} is confirmed.`],
    details: [
      ['Amount', money(p.payment.amount, p.payment.currency)],
      ['Paid to', p.merchantName],
      ['Reference', p.payment.reference],
      ['Network', chainOf(p.payment)],
      ['Transaction', p.payment.tx_hash],
      ['From', p.payment.from_address],
      ['Payment ID', p.payment.payment_id],
      ['Date', p.completedAt],
    ],
    outro: ['Keep this e-mail as your receipt. Questions about the order go to the merchant.'],
  });
};

/** To the merchant, on payment.completed. */
export const paymentReceived = (p: {
  payment: PaymentWebhookData;
  merchantName: string;
  completedAt: string;
}): RenderedEmail =>
  renderMessage({
    subject: `Payment received: ${money(p.payment.amount, p.payment.currency)}`,
    heading: 'Payment received',
    intro: [
      `${p.merchantName}, a payment of ${money(p.payment.amount, p.payment.currency)} was confirmed and credited to your wallet.`,
    ],
    details: [
      ['Amount', money(p.payment.amount, p.payment.currency)],
      ['Reference', p.payment.reference],
      ['Customer', p.payment.customer_email],
      ['Network', chainOf(p.payment)],
      ['Transaction', p.payment.tx_hash],
      ['Payment ID', p.payment.payment_id],
      ['Date', p.completedAt],
    ],
  });

/** To the customer, on refund.completed (the address comes from the payment's completion). */
export const refundCompleted = (p: {
  refund: RefundWebhookData;
  merchantName: string | undefined;
  completedAt: string;
}): RenderedEmail => {
  const from = p.merchantName ?? 'The merchant';
  return renderMessage({
    subject: `Refund sent: ${money(p.refund.amount, p.refund.currency)}`,
    heading: 'Your refund was sent',
    intro: [
      `${from} refunded ${money(p.refund.amount, p.refund.currency)} to your wallet on ${network(p.refund.blockchain)}.`,
    ],
    details: [
      ['Amount', money(p.refund.amount, p.refund.currency)],
      ['Network', network(p.refund.blockchain)],
      ['Sent to', p.refund.destination_address],
      ['Transaction', p.refund.tx_hash],
      ['Refund ID', p.refund.refund_id],
      ['Payment ID', p.refund.payment_id],
      ['Date', p.completedAt],
    ],
  });
};

/** To the merchant, when an endpoint is disabled after consecutive failures. */
export const endpointDisabled = (p: {
  merchantName: string;
  endpointId: string;
  url: string;
  failures: number;
  lastError: string | null;
  disabledAt: string;
}): RenderedEmail =>
  renderMessage({
    subject: `Webhook endpoint disabled after ${p.failures} consecutive failures`,
    heading: 'A webhook endpoint was disabled',
    intro: [
      `${p.merchantName}, the last ${p.failures} deliveries to one of your webhook endpoints failed in a row, so it was disabled and no longer receives events.`,
    ],
    details: [
      ['Endpoint', p.url],
      ['Endpoint ID', p.endpointId],
      ['Last error', p.lastError],
      ['Disabled at', p.disabledAt],
    ],
    outro: [
      'Fix the endpoint, then re-enable it with PUT /merchant-webhooks/api/:id and {"is_active": true}.',
      'Events missed in the meantime can be sent again with POST /merchant-webhooks/api/:id/replay.',
    ],
  });

/**
 * To the merchant, on invoice.issued: the invoice for the fee of a withdrawal, its PDF attached, in
 * the invoice's language and number format.
 */
export const invoiceIssued = (p: { invoice: InvoiceIssuedData; merchantName: string }): RenderedEmail => {
  const i = p.invoice;
  const w = INVOICE_EMAIL_WORDS[i.language];
  const amount = (value: string, currency: string) => `${formatDecimal(value, i.language)} ${currency}`;
  const title = `${i.rectifiesInvoiceId !== null ? w.correctiveInvoice : w.invoice} ${i.invoiceNumber}`;
  return renderMessage({
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
      [w.issued, i.issuedAt],
    ],
    outro: [w.outro],
  });
};

/** To a new account's address: the link that confirms it (nothing else is sent to it before). */
export const emailConfirmation = (p: {
  merchantName: string;
  link: string;
  expiresAt: string;
}): RenderedEmail =>
  renderMessage({
    subject: 'Confirm your e-mail address for StablePay',
    heading: 'Confirm your e-mail address',
    intro: [
      `Welcome to StablePay. Confirm that this address belongs to ${p.merchantName} by following the link below.`,
      'Until it is confirmed, your account receives no notices and cannot withdraw.',
    ],
    details: [
      ['Account', p.merchantName],
      ['Link valid until', p.expiresAt],
    ],
    action: { label: 'Confirm e-mail address', url: p.link },
    outro: [
      'The link works once. If it has expired, sign in to the dashboard and ask for a new one.',
      'If you did not register, ignore this e-mail: no account is used without this confirmation.',
    ],
  });

/** To a registered address, when someone registers again with it (the answer to them reveals nothing). */
export const registrationAttempted = (p: { merchantName: string; link: string }): RenderedEmail =>
  renderMessage({
    subject: 'Someone tried to register with your e-mail address',
    heading: 'A registration with your address',
    intro: [
      `Someone tried to create a StablePay account with this e-mail address, which already belongs to ${p.merchantName}. No new account was created.`,
      'If it was you, sign in with your existing account instead. If you no longer know your password, contact your StablePay operator to have it reset.',
    ],
    details: [['Account', p.merchantName]],
    action: { label: 'Sign in', url: p.link },
    outro: [
      'If it was not you, nothing needs doing: your account is unchanged, and the attempt is in its audit log.',
    ],
  });

const STEP_UP_TEXT = {
  mfa: 'password sign-in and an authenticator code',
  recent_sign_in: 'a recent password sign-in',
} as const;

/**
 * To the merchant, on withdrawal_address.added: the one chance to stop a stranger's address before
 * its hold ends, so it says when that is and what to do.
 */
export const withdrawalAddressAdded = (p: {
  address: WithdrawalAddressAddedData;
  merchantName: string;
}): RenderedEmail => {
  const a = p.address;
  return renderMessage({
    subject: `New withdrawal address added: ${a.label}`,
    heading: 'A withdrawal address was added',
    intro: [
      `${p.merchantName}, an address was added to your withdrawal address book. Withdrawals can go there from ${a.usableFrom}.`,
    ],
    details: [
      ['Label', a.label],
      ['Address', a.address],
      ['Usable from', a.usableFrom],
      ['Confirmed with', STEP_UP_TEXT[a.stepUp]],
      ['Added', a.addedAt],
    ],
    outro: [
      'If you did not add it, remove it in the dashboard (Withdrawal addresses) before then, change your password and turn on two-factor sign-in.',
    ],
  });
};

/** To the merchant, on withdrawal_address.removed. */
export const withdrawalAddressRemoved = (p: {
  address: WithdrawalAddressRemovedData;
  merchantName: string;
}): RenderedEmail => {
  const a = p.address;
  return renderMessage({
    subject: `Withdrawal address removed: ${a.label}`,
    heading: 'A withdrawal address was removed',
    intro: [
      `${p.merchantName}, an address was removed from your withdrawal address book. No withdrawal goes there any more.`,
    ],
    details: [
      ['Label', a.label],
      ['Address', a.address],
      ['Confirmed with', STEP_UP_TEXT[a.stepUp]],
      ['Removed', a.removedAt],
    ],
    outro: ['If you did not remove it, change your password and review the audit log in the dashboard.'],
  });
};
