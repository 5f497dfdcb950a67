import type { Knex } from 'knex';
import type {
  InvoiceIssuedData,
  PaymentCompletedData,
  PaymentWebhookData,
  RefundWebhookData,
} from '@stablepay/contracts';
import type { NotifierContext } from '../context.js';
import { customerOfPayment, findMerchant, rememberCustomer } from './mail-repo.js';
import { merchantRecipient, normaliseAddress, queueNotices, type EventRef, type Notice } from './notices.js';
import { TEMPLATES, invoiceIssued, paymentReceipt, paymentReceived, refundCompleted } from './templates.js';

/**
 * payment.completed: a receipt to the customer in the language they paid in, a notice to the
 * merchant in theirs; remembers the customer (and their language, for a refund's e-mail).
 */
export const queuePaymentEmails = async (
  ctx: NotifierContext,
  trx: Knex.Transaction,
  event: EventRef,
  payment: PaymentWebhookData & Pick<PaymentCompletedData, 'customer_language'>,
): Promise<number> => {
  const customerLanguage = payment.customer_language ?? 'en';
  const merchant = await findMerchant(trx, event.merchantId);
  const completedAt = new Date(event.occurredAt).toISOString();
  const notices: Notice[] = [];
  const customer = normaliseAddress(payment.customer_email);
  if (customer) {
    await rememberCustomer(trx, {
      paymentId: payment.payment_id,
      merchantId: event.merchantId,
      email: customer,
      language: customerLanguage,
    });
    notices.push({
      template: TEMPLATES.paymentReceipt,
      recipient: customer,
      content: paymentReceipt({
        payment,
        merchantName: merchant?.name,
        completedAt,
        language: customerLanguage,
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
): Promise<number> => {
  const known = await customerOfPayment(trx, event.merchantId, refund.payment_id);
  const customer = normaliseAddress(known?.email);
  if (!known || !customer) return 0;
  const merchant = await findMerchant(trx, event.merchantId);
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
