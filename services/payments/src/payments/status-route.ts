import { ok, type HandlerOf } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { getPaymentById } from './payment-queries.js';
import { toStatusView } from './views.js';

/**
 * GET /payments/:id/status (public). A malformed id is a 400 naming `id` (like every other
 * validation failure); a well-formed id that matches nothing is a 404.
 */
export const paymentStatusRoute =
  (ctx: PaymentsContext): HandlerOf<'getPaymentStatus'> =>
  async ({ params, res }) => {
    ok(res, toStatusView(await getPaymentById(ctx, params.id)));
  };
