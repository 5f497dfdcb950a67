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
