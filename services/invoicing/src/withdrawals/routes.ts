import type { WithdrawalListPage } from '@stablepay/contracts';
import { ok, requestKeyOf, type HandlerOf } from '@stablepay/platform';
import type { InvoicingContext } from '../context.js';
import { createWithdrawal } from './create-withdrawal.js';
import { getMerchantWithdrawal, listMerchantWithdrawals } from './withdrawal-queries.js';
import { toWithdrawalView } from './views.js';

type Create = HandlerOf<'createWithdrawal'> & HandlerOf<'createWithdrawalApi'>;
type List = HandlerOf<'listWithdrawals'> & HandlerOf<'listWithdrawalsApi'>;
type Detail = HandlerOf<'getWithdrawal'> & HandlerOf<'getWithdrawalApi'>;

/**
 * POST /withdrawals (jwt) and /withdrawals/api/create (key): 201 with the requested withdrawal; with
 * an Idempotency-Key the gateway forwarded, the withdrawal that key already made, if any (the key
 * with another body is a 422).
 */
export const createWithdrawalRoute =
  (ctx: InvoicingContext): Create =>
  async ({ body, merchant, req, res }) => {
    const withdrawal = await createWithdrawal(ctx, merchant.merchantId, body, requestKeyOf(req, body));
    ok(res, toWithdrawalView(withdrawal), 201);
  };

/** GET /withdrawals (jwt) and /withdrawals/api/list (key): newest first. */
export const listWithdrawalsRoute =
  (ctx: InvoicingContext): List =>
  async ({ query, merchant, res }) => {
    const page = await listMerchantWithdrawals(ctx, merchant.merchantId, query);
    const data: WithdrawalListPage = { ...page, withdrawals: page.withdrawals.map(toWithdrawalView) };
    ok(res, data);
  };

/** GET /withdrawals/:id (jwt) and /withdrawals/api/:id (key): another merchant's is a 404. */
export const withdrawalDetailRoute =
  (ctx: InvoicingContext): Detail =>
  async ({ params, merchant, res }) => {
    ok(res, toWithdrawalView(await getMerchantWithdrawal(ctx, merchant.merchantId, params.id)));
  };
