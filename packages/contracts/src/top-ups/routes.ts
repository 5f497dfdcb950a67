import { createdOrExisting } from '../catalogue/responses.js';
import { routeTable } from '../catalogue/route-spec.js';
import { CheckoutSessionIdParams } from '../checkout/schemas.js';
import { ReportTopUpBody, TopUpResponse } from './schemas.js';

const checkout = { service: 'payments', tags: ['Checkout'] } as const;

export const topUpRoutes = routeTable([
  {
    ...checkout,
    operationId: 'reportCheckoutTopUp',
    method: 'post',
    path: '/checkout/sessions/:id/top-ups',
    auth: 'public',
    summary: 'Report a transfer that tops up an underpaid session payment',
    description:
      "Called by the checkout page after the customer sent the missing amount. The session's payment must be awaiting a top-up (409 otherwise). The transaction is a claim: the chain-watcher counts its transfers from the payment's from_address to the merchant wallet. Idempotent on txHash: a known txHash answers 200 with the existing top-up.",
    extension: true,
    request: { params: CheckoutSessionIdParams, body: ReportTopUpBody },
    responses: createdOrExisting(
      'Top-up recorded, to be verified on-chain',
      'txHash already reported for this payment: the existing top-up',
      TopUpResponse,
    ),
  },
]);
