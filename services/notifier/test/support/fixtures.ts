import { randomBytes, randomUUID } from 'node:crypto';

export const txHash = (): string => `0x${randomBytes(32).toString('hex')}`;
export const address = (): string => `0x${randomBytes(20).toString('hex')}`;

/** payment.completed / payment.failed data as the payments service publishes it. */
export const paymentData = (merchantId: string, over: Record<string, unknown> = {}) => ({
  payment_id: randomUUID(),
  merchant_id: merchantId,
  amount: '25.500000',
  currency: 'USDC',
  status: 'completed',
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

/** refund.* data as the refunds service publishes it. */
export const refundData = (merchantId: string, paymentId: string, over: Record<string, unknown> = {}) => ({
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

export const merchantData = (merchantId: string, email: string, name = 'Acme Shop') => ({
  merchantId,
  publicId: `sp_live_${merchantId}`,
  name,
  blockchain: 'BASE',
  acceptedCurrencies: ['USDC', 'EURC'],
  email,
});
