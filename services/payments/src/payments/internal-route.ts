import { notFound, ok, type HandlerOf } from '@stablepay/platform';
import { findPayment } from './payments-repo.js';
import { toInternalPayment } from './views.js';
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
    ok(res, toInternalPayment(p));
  };
