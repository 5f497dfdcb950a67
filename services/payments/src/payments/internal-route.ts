import type { InternalPayment } from '@stablepay/contracts';
import { notFound, ok, type HandlerOf } from '@stablepay/platform';
import { findPayment } from './payments-repo.js';
import type { PaymentsContext } from '../context.js';

/**
 * GET /internal/merchants/:merchantId/payments/:id (service token): the payment as it is now, for
 * the refunds service when payment.completed has not reached it yet. Another merchant's payment is
 * not found, exactly like a missing one.
 */
export const internalPaymentRoute =
  (ctx: PaymentsContext): HandlerOf<'getInternalPayment'> =>
  async ({ params, res }) => {
    const p = await findPayment(ctx.db, params.id, params.merchantId);
    if (!p) throw notFound('Payment');
    const data: InternalPayment = {
      payment_id: p.id,
      merchant_id: p.merchantId,
      amount: p.amount,
      currency: p.currency,
      status: p.status,
      tx_hash: p.txHash,
      from_address: p.fromAddress,
      source_chain: p.sourceChain,
      destination_chain: p.destinationChain,
      is_cross_chain: p.isCrossChain,
      created_at: p.createdAt.toISOString(),
      completed_at: p.status === 'completed' ? (p.completedAt ?? p.updatedAt).toISOString() : null,
      received_amount: p.receivedAmount,
      failure_reason: p.failureReason,
      failed_at: p.status === 'failed' ? p.updatedAt.toISOString() : null,
    };
    ok(res, data);
  };
