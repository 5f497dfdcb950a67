import { ok, type HandlerOf } from '@stablepay/platform';
import { getBillingProfile, updateBillingProfile } from './billing-profile.js';
import type { InvoicingContext } from '../context.js';

/** GET /billing-profile (jwt). */
export const getBillingProfileRoute =
  (ctx: InvoicingContext): HandlerOf<'getBillingProfile'> =>
  async ({ merchant, res }) => {
    ok(res, await getBillingProfile(ctx, merchant.merchantId));
  };

/** PUT /billing-profile (jwt): the whole profile; 422 when the VAT number is not the country's. */
export const updateBillingProfileRoute =
  (ctx: InvoicingContext): HandlerOf<'updateBillingProfile'> =>
  async ({ body, merchant, res }) => {
    ok(res, await updateBillingProfile(ctx, merchant.merchantId, body));
  };
