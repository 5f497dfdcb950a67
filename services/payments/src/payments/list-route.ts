import type { PaymentListPage } from '@stablepay/contracts';
import { ok, type HandlerOf } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { listMerchantPayments } from './payment-queries.js';
import { toListItem } from './views.js';

/** GET /payments (jwt) and GET /payments/api/list (key); they differ only in the page-size limit. */
export const listPaymentsRoute =
  (ctx: PaymentsContext): HandlerOf<'listPayments'> & HandlerOf<'listPaymentsApi'> =>
  async ({ query, merchant, res }) => {
    const page = await listMerchantPayments(ctx, merchant.merchantId, query);
    const data: PaymentListPage = { ...page, payments: page.payments.map(toListItem) };
    ok(res, data);
  };
