import type { CreatedPayment } from '@stablepay/contracts';
import { ok, type HandlerOf, type RouteHandlers } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { createGaslessPayment } from './create.js';
import { quoteGasless } from './quote.js';

/** GET /payments/gasless-quote (public): what to sign and every fee, signed and time-limited. */
export const gaslessQuoteRoute =
  (ctx: PaymentsContext): HandlerOf<'getGaslessQuote'> =>
  async ({ query, res }) =>
    ok(res, await quoteGasless(ctx, query));

/** POST /payments/create-gasless (public): 201 for a new payment, 200 for a known authorization. */
export const createGaslessRoute =
  (ctx: PaymentsContext): HandlerOf<'createGaslessPayment'> =>
  async ({ body, res }) => {
    const { created, payment } = await createGaslessPayment(ctx, body);
    const data: CreatedPayment = {
      paymentId: payment.id,
      status: payment.status,
      isCrossChain: payment.isCrossChain,
    };
    ok(res, data, created ? 201 : 200);
  };

/** The gasless operations of the catalogue. */
export const gaslessRoutes = (
  ctx: PaymentsContext,
): Pick<RouteHandlers<'payments'>, 'getGaslessQuote' | 'createGaslessPayment'> => ({
  getGaslessQuote: gaslessQuoteRoute(ctx),
  createGaslessPayment: createGaslessRoute(ctx),
});
