import type { RequestHandler } from 'express';
import type { ApiPaymentListQuery, PaymentListPage, PaymentListQuery } from '@stablepay/contracts';
import { merchantOf, ok, parseQuery } from '@stablepay/platform';
import type { PaymentsContext } from '../../domain/context.js';
import { listMerchantPayments } from '../../domain/payment-queries.js';
import { toListItem } from '../views.js';

/** GET /payments (jwt) and GET /payments/api/list (key); they differ only in the page-size limit. */
export const listPaymentsRoute =
  (ctx: PaymentsContext, schema: typeof PaymentListQuery | typeof ApiPaymentListQuery): RequestHandler =>
  async (req, res) => {
    const query = parseQuery(schema, req);
    const page = await listMerchantPayments(ctx, merchantOf(res).merchantId, query);
    const data: PaymentListPage = { ...page, payments: page.payments.map(toListItem) };
    ok(res, data);
  };
