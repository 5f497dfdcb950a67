import type { CreatedPayment } from '@stablepay/contracts';
import { ok, type HandlerOf } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { createPublicPayment } from './create-payment.js';

/** POST /payments/create-public (public): 201 for a new payment, 200 for a known txHash. */
export const createPublicPaymentRoute =
  (ctx: PaymentsContext): HandlerOf<'createPublicPayment'> =>
  async ({ body, res }) => {
    const { created, payment } = await createPublicPayment(ctx, body);
    const data: CreatedPayment = {
      paymentId: payment.id,
      status: payment.status,
      isCrossChain: payment.isCrossChain,
    };
    ok(res, data, created ? 201 : 200);
  };
