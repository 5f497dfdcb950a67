import type { RouteHandlers } from '@stablepay/platform';
import type { InvoicingContext } from './context.js';
import { getBillingProfileRoute, updateBillingProfileRoute } from './billing/routes.js';
import {
  internalInvoicePdfRoute,
  invoicePdfRoute,
  listInvoicesRoute,
  rectifyInvoiceRoute,
} from './invoices/routes.js';
import {
  addWithdrawalAddressRoute,
  listWithdrawalAddressesRoute,
  removeWithdrawalAddressRoute,
} from './withdrawal-addresses/routes.js';
import { createWithdrawalRoute, listWithdrawalsRoute, withdrawalDetailRoute } from './withdrawals/routes.js';

/**
 * The invoicing catalogue routes (contracts `withdrawals/`, `invoices/`), one handler each; the dashboard
 * (jwt) and API-key forms of a route share their handler.
 */
export const invoicingRoutes = (ctx: InvoicingContext): RouteHandlers<'invoicing'> => {
  const create = createWithdrawalRoute(ctx);
  const list = listWithdrawalsRoute(ctx);
  const detail = withdrawalDetailRoute(ctx);
  const invoices = listInvoicesRoute(ctx);
  const pdf = invoicePdfRoute(ctx);
  return {
    createWithdrawal: create,
    createWithdrawalApi: create,
    listWithdrawals: list,
    listWithdrawalsApi: list,
    getWithdrawal: detail,
    getWithdrawalApi: detail,
    listInvoices: invoices,
    listInvoicesApi: invoices,
    getInvoicePdf: pdf,
    getInvoicePdfApi: pdf,
    rectifyInvoice: rectifyInvoiceRoute(ctx),
    getBillingProfile: getBillingProfileRoute(ctx),
    updateBillingProfile: updateBillingProfileRoute(ctx),
    getInternalInvoicePdf: internalInvoicePdfRoute(ctx),
    listWithdrawalAddresses: listWithdrawalAddressesRoute(ctx),
    addWithdrawalAddress: addWithdrawalAddressRoute(ctx),
    removeWithdrawalAddress: removeWithdrawalAddressRoute(ctx),
  };
};
