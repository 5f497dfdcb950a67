import { ok, type HandlerOf } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { reportTopUp } from './top-ups.js';
import { toTopUpView } from './views.js';

/** POST /checkout/sessions/:id/top-ups (public): 201 for a new top-up, 200 for a known txHash. */
export const reportTopUpRoute =
  (ctx: PaymentsContext): HandlerOf<'reportCheckoutTopUp'> =>
  async ({ params, body, res }) => {
    const { topUp, created } = await reportTopUp(ctx, params.id, body.txHash);
    ok(res, toTopUpView(topUp), created ? 201 : 200);
  };
