import { created, ok } from '../catalogue/responses.js';
import { routeTable } from '../catalogue/route-spec.js';
import { CheckoutSessionListQuery, CheckoutSessionListResponse } from './list.js';
import {
  CheckoutSessionIdParams,
  CheckoutSessionResponse,
  CreateCheckoutSessionBody,
  CreateCheckoutSessionResponse,
  PublicCheckoutSessionResponse,
} from './schemas.js';

const checkout = { service: 'payments', tags: ['Checkout'] } as const;

const createSession = {
  ...checkout,
  method: 'post',
  auth: 'key',
  scope: 'checkout:write',
  summary: 'Create a hosted checkout session',
  description:
    'Answers the session with the `url` of its hosted payment page: send the customer there. `currency` ' +
    'defaults to USDC and `expires_in` to 1800 seconds; after it the session is expired and takes no ' +
    'payment. Once paid the session is `completed` and the customer is sent to `return_url`; check the ' +
    'session and its linked payment with GET /checkout/sessions/{id} before fulfilling the order.',
  request: { body: CreateCheckoutSessionBody },
  responses: created('Session created', CreateCheckoutSessionResponse),
} as const;

export const checkoutRoutes = routeTable([
  {
    ...createSession,
    operationId: 'createCheckoutSession',
    path: '/checkout/sessions',
    dashboard: '/checkout-sessions',
  },
  {
    ...createSession,
    operationId: 'createCheckoutSessionAlias',
    path: '/public/checkout/sessions',
    description: 'Alias of POST /checkout/sessions.',
    extension: true,
  },
  {
    ...checkout,
    operationId: 'getPublicCheckoutSession',
    method: 'get',
    path: '/checkout/sessions/:id/public',
    auth: 'public',
    summary: 'Checkout session for the payment widget (no metadata)',
    description:
      "The session as the payment widget renders it: amount, currency, status, where to pay (the merchant's chain and address) and the linked payment, never `metadata`. 404 for an unknown id.",
    request: { params: CheckoutSessionIdParams },
    responses: ok('Public session view', PublicCheckoutSessionResponse),
  },
  {
    ...checkout,
    operationId: 'listCheckoutSessions',
    method: 'get',
    path: '/checkout/sessions',
    dashboard: '/checkout-sessions',
    auth: 'key',
    scope: 'checkout:read',
    summary: 'List checkout sessions',
    description: 'Newest first, filtered by status; a session past its expiry is listed as expired.',
    extension: true,
    request: { query: CheckoutSessionListQuery },
    responses: ok('A page of checkout sessions', CheckoutSessionListResponse),
  },
  {
    ...checkout,
    operationId: 'getCheckoutSession',
    method: 'get',
    path: '/checkout/sessions/:id',
    dashboard: '/checkout-sessions/:id',
    auth: 'key',
    scope: 'checkout:read',
    summary: 'Get a checkout session with its linked payment',
    description:
      "A session with its status and linked payment: `completed` once a payment for it is completed, `expired` after `expires_at`. Another merchant's session is 404.",
    request: { params: CheckoutSessionIdParams },
    responses: ok('Session', CheckoutSessionResponse),
  },
]);
