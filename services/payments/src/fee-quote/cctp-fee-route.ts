import { ok, type HandlerOf, type RouteHandlers } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { quoteCctpFee } from './quote.js';

/** GET /payments/cctp-fee (public): a signed, time-limited cross-chain fee quote. */
export const cctpFeeRoute =
  (ctx: PaymentsContext): HandlerOf<'getCctpFee'> =>
  async ({ query, res }) =>
    ok(res, await quoteCctpFee(ctx, query));

/** The fee quote's one catalogue operation. */
export const feeQuoteRoutes = (ctx: PaymentsContext): Pick<RouteHandlers<'payments'>, 'getCctpFee'> => ({
  getCctpFee: cctpFeeRoute(ctx),
});
