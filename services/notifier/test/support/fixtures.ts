import { randomBytes, randomUUID } from 'node:crypto';
import type { EventDataInput } from '@stablepay/contracts';

export const txHash = (): string => `0x${randomBytes(32).toString('hex')}`;
export const address = (): string => `0x${randomBytes(20).toString('hex')}`;

type PaymentData = EventDataInput<'payment.completed'>;
type RefundData = EventDataInput<'refund.completed'>;

/** payment.completed data as the payments service publishes it (payment.failed adds failure_reason). */
export const paymentData = (merchantId: string, over: Partial<PaymentData> = {}) => ({
  payment_id: randomUUID(),
  merchant_id: merchantId,
  amount: '25.500000',
  currency: 'USDC' as const,
  status: 'completed' as PaymentData['status'],
  tx_hash: txHash(),
  from_address: address(),
  to_address: address(),
  source_chain: 'BASE',
  destination_chain: null,
  is_cross_chain: false,
  customer_email: 'buyer@example.com',
  reference: 'order-42',
  metadata: { cart: 'c-1' },
  completed_at: new Date().toISOString(),
  ...over,
});

/** payment.failed data: the payment data with its (internal) failure reason. */
export const failedPaymentData = (merchantId: string, failureReason: string) => ({
  ...paymentData(merchantId, { status: 'failed' }),
  failure_reason: failureReason,
});

/** refund.* data as the refunds service publishes it. */
export const refundData = (
  merchantId: string,
  paymentId: string,
  over: Partial<RefundData> = {},
): RefundData => ({
  refund_id: randomUUID(),
  payment_id: paymentId,
  merchant_id: merchantId,
  amount: '5.000000',
  currency: 'USDC',
  status: 'completed',
  destination_address: address(),
  blockchain: 'BASE',
  reason: 'requested_by_customer',
  tx_hash: txHash(),
  ...over,
});

export const merchantData = (
  merchantId: string,
  email: string,
  name = 'Acme Shop',
): EventDataInput<'merchant.created'> => ({
  merchantId,
  publicId: `sp_live_${merchantId}`,
  name,
  blockchain: 'BASE',
  acceptedCurrencies: ['USDC', 'EURC'],
  email,
});

/** The extension events' integration data, as payments (checkout) and invoicing publish it. */
export const extensionEventData = (merchantId: string) => {
  const withdrawal = {
    withdrawalId: randomUUID(),
    merchantId,
    amount: '1000.000000',
    fee: '5.000000',
    netAmount: '995.000000',
    currency: 'USDC' as const,
    blockchain: 'BASE' as const,
    destinationAddress: address(),
    treasuryAddress: address(),
  };
  return {
    'checkout.session.completed': {
      sessionId: `cs_live_${randomUUID()}`,
      paymentId: randomUUID(),
      merchantId,
      amount: '49.900000',
      currency: 'USDC' as const,
      completedAt: '2026-11-27T10:15:00.000Z',
    },
    'checkout.session.expired': {
      sessionId: `cs_live_${randomUUID()}`,
      merchantId,
      expiredAt: '2026-11-27T10:45:00.000Z',
    },
    'withdrawal.completed': {
      ...withdrawal,
      txHash: txHash(),
      feeTxHash: txHash(),
      completedAt: '2026-11-27T10:15:00.000Z',
    },
    'withdrawal.failed': {
      ...withdrawal,
      reason: 'The net transfer failed: transaction reverted',
      txHash: null,
      feeTxHash: txHash(),
      failedAt: '2026-11-27T10:15:00.000Z',
    },
    'invoice.issued': {
      invoiceId: randomUUID(),
      merchantId,
      withdrawalId: withdrawal.withdrawalId,
      invoiceNumber: 'INV-2026-0042',
      grossAmount: '1000.000000',
      serviceFee: '5.000000',
      serviceFeeEur: '4.610000',
      taxAmount: '0.800000',
      netAmount: '995.000000',
      currency: 'USDC' as const,
      blockchain: 'BASE' as const,
      taxCase: 'domestic' as const,
      language: 'en' as const,
      pdfUrl: 'invoices/2026/INV-2026-0042.pdf',
      fileName: 'INV-2026-0042.pdf',
      rectifiesInvoiceId: null,
      issuedAt: '2026-11-27T10:16:00.000Z',
    },
  };
};
