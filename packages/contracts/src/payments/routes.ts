import { createdOrExisting, ok } from '../catalogue/responses.js';
import { internalRoute, routeTable } from '../catalogue/route-spec.js';
import { InternalPaymentParams, InternalPaymentResponse } from './internal.js';
import { ApiPaymentListQuery, PaymentListQuery, PaymentListResponse } from './list.js';
import { CreatePublicPaymentBody, CreatePublicPaymentResponse, PaymentIdParams } from './schemas.js';
import { MerchantPaymentDetailResponse, PaymentDetailResponse, PaymentStatusResponse } from './views.js';

const payments = { service: 'payments', tags: ['Payments'] } as const;

export const paymentRoutes = routeTable([
  {
    ...payments,
    operationId: 'createPublicPayment',
    method: 'post',
    path: '/payments/create-public',
    auth: 'public',
    summary: 'Record a payment after the customer transaction',
    description:
      "Called by the payment widget. Idempotent on txHash: a known txHash answers 200 with the existing payment. `language` (en, de, fr, es, it; our extension) is the checkout page's: the customer's e-mails are written in it, English without it.",
    request: { body: CreatePublicPaymentBody },
    responses: createdOrExisting(
      'Payment created',
      'txHash already recorded: the existing payment',
      CreatePublicPaymentResponse,
    ),
  },
  {
    ...payments,
    operationId: 'listPaymentsApi',
    method: 'get',
    path: '/payments/api/list',
    auth: 'key',
    scope: 'payments:read',
    summary: 'List payments',
    description:
      'Newest first by default; filter by status, currency, date range or a search (tx hash, payer address, customer e-mail, reference), and page with `limit` and `offset`. For polling, `since` answers only payments created strictly after an instant.',
    request: { query: ApiPaymentListQuery },
    responses: ok('A page of payments', PaymentListResponse),
  },
  {
    ...payments,
    operationId: 'getPaymentApi',
    method: 'get',
    path: '/payments/api/:id',
    auth: 'key',
    scope: 'payments:read',
    summary: 'Get a payment',
    description: 'Use it to verify a payment after a payment.completed webhook.',
    request: { params: PaymentIdParams },
    responses: ok('Payment detail', PaymentDetailResponse),
  },
  {
    ...payments,
    operationId: 'listPayments',
    method: 'get',
    path: '/payments',
    auth: 'jwt',
    summary: 'List payments (dashboard)',
    description: "The dashboard's view of GET /payments/api/list, for a signed-in user.",
    request: { query: PaymentListQuery },
    responses: ok('A page of payments', PaymentListResponse),
  },
  {
    ...payments,
    operationId: 'getPaymentStatus',
    method: 'get',
    path: '/payments/:id/status',
    auth: 'public',
    summary: 'Public payment status',
    description:
      "Status of one payment for the payment widget and the customer, without the merchant's details. Poll it after POST /payments/create-public until the status is final (`completed` or `failed`). 404 for an unknown id.",
    request: { params: PaymentIdParams },
    responses: ok('Status view', PaymentStatusResponse),
  },
  {
    ...payments,
    operationId: 'getPayment',
    method: 'get',
    path: '/payments/:id',
    auth: 'jwt',
    summary: 'Get a payment with all cross-chain fields (dashboard)',
    description:
      "One payment as the dashboard shows it: amounts, addresses, status history and every cross-chain field. Another merchant's payment is 404.",
    request: { params: PaymentIdParams },
    responses: ok('Payment detail', MerchantPaymentDetailResponse),
  },
  {
    ...internalRoute,
    service: 'payments',
    operationId: 'getInternalPayment',
    method: 'get',
    path: '/internal/merchants/:merchantId/payments/:id',
    summary: "One of a merchant's payments as it is now, for a projection that has not caught up",
    noStore: true,
    request: { params: InternalPaymentParams },
    responses: ok('Payment', InternalPaymentResponse),
  },
]);
