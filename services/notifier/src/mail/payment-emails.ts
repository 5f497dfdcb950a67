import type { Knex } from 'knex';
import type {
  InvoiceIssuedData,
  Language,
  PaymentCompletedData,
  PaymentWebhookData,
  RefundWebhookData,
} from '@stablepay/contracts';
import type { MerchantContact } from '@stablepay/platform';
import type { NotifierContext } from '../context.js';
import { customerOfPayment } from './mail-repo.js';
import { merchantRecipient, normaliseAddress, queueNotices, type EventRef, type Notice } from './notices.js';
import { TEMPLATES, invoiceIssued, paymentReceipt, paymentReceived, refundCompleted } from './templates.js';

type CompletedPayment = PaymentWebhookData & Pick<PaymentCompletedData, 'customer_language'>;

/** The payer of a completed payment, when it gave an address we write to, in the language it paid in. */
export interface PaymentCustomer {
  paymentId: string;
  email: string;
  language: Language;
}

export const paymentCustomerOf = (payment: CompletedPayment): PaymentCustomer | undefined => {
  const email = normaliseAddress(payment.customer_email);
  return email
    ? { paymentId: payment.payment_id, email, language: payment.customer_language ?? 'en' }
    : undefined;
};

/**
 * payment.completed: a receipt to the customer in the language they paid in, a notice to the
 * merchant in theirs. The customer was remembered (with their language, for a refund's e-mail)
 * and the merchant read by the statement that took the event in.
 */
export const queuePaymentEmails = async (
  ctx: NotifierContext,
  trx: Knex.Transaction,
  event: EventRef,
  payment: CompletedPayment,
  merchant: MerchantContact | undefined,
): Promise<number> => {
  const completedAt = new Date(event.occurredAt).toISOString();
  const notices: Notice[] = [];
  const customer = paymentCustomerOf(payment);
  if (customer) {
    notices.push({
      template: TEMPLATES.paymentReceipt,
      recipient: customer.email,
      content: paymentReceipt({
        payment,
        merchantName: merchant?.name,
        completedAt,
        language: customer.language,
      }),
    });
  }
  const merchantAddress = merchantRecipient(ctx, event.merchantId, merchant, 'payment notice');
  if (merchant && merchantAddress) {
    notices.push({
      template: TEMPLATES.paymentReceived,
      recipient: merchantAddress,
      content: paymentReceived({
        payment,
        merchantName: merchant.name,
        completedAt,
        language: merchant.language ?? 'en',
      }),
    });
  }
  return queueNotices(ctx, trx, { eventId: event.id, merchantId: event.merchantId }, notices);
};

/** refund.completed: a notice to the customer whose payment it refunds, when we know the address, in the payment's language. */
export const queueRefundEmail = async (
  ctx: NotifierContext,
  trx: Knex.Transaction,
  event: EventRef,
  refund: RefundWebhookData,
  merchant: MerchantContact | undefined,
): Promise<number> => {
  const known = await customerOfPayment(trx, event.merchantId, refund.payment_id);
  const customer = normaliseAddress(known?.email);
  if (!known || !customer) return 0;
  const content = refundCompleted({
    refund,
    merchantName: merchant?.name,
    completedAt: new Date(event.occurredAt).toISOString(),
    language: known.language,
  });
  return queueNotices(ctx, trx, { eventId: event.id, merchantId: event.merchantId }, [
    { template: TEMPLATES.refundCompleted, recipient: customer, content },
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
  merchant: MerchantContact | undefined,
): Promise<number> => {
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
