import { created, ok } from '../catalogue/responses.js';
import { routeTable } from '../catalogue/route-spec.js';
import {
  CancelRefundResponse,
  CreateRefundBody,
  CreateRefundResponse,
  RefundDetailResponse,
  RefundIdParams,
  RefundListQuery,
  RefundListResponse,
} from './schemas.js';

const refunds = { service: 'refunds', tags: ['Refunds'], auth: 'key' } as const;

export const refundRoutes = routeTable([
  {
    ...refunds,
    operationId: 'createRefund',
    method: 'post',
    path: '/refunds/api/create',
    dashboard: '/refunds',
    scope: 'refunds:write',
    summary: 'Refund a completed payment, fully or partly',
    description:
      'Allowed up to 180 days after the payment completed, or failed underpaid with money received, for at ' +
      'most what arrived less the refunds already made. Sent on-chain to the original sender.',
    request: { body: CreateRefundBody },
    responses: created('Refund created (pending)', CreateRefundResponse),
  },
  {
    ...refunds,
    operationId: 'listRefunds',
    method: 'get',
    path: '/refunds/api/list',
    dashboard: '/refunds',
    scope: 'refunds:read',
    summary: 'List refunds',
    description:
      'Newest first, filtered by status and currency or a search, paged with `limit` and `offset`.',
    request: { query: RefundListQuery },
    responses: ok('A page of refunds', RefundListResponse),
  },
  {
    ...refunds,
    operationId: 'getRefund',
    method: 'get',
    path: '/refunds/api/:id',
    dashboard: '/refunds/:id',
    scope: 'refunds:read',
    summary: 'Get a refund',
    description:
      "One refund with its status and, once sent, its transaction hash. Another merchant's refund is 404.",
    request: { params: RefundIdParams },
    responses: ok('Refund detail', RefundDetailResponse),
  },
  {
    ...refunds,
    operationId: 'cancelRefund',
    method: 'post',
    path: '/refunds/api/:id/cancel',
    dashboard: '/refunds/:id/cancel',
    scope: 'refunds:write',
    summary: 'Cancel a pending refund',
    description: 'Only a refund in status pending can be cancelled; otherwise 409.',
    request: { params: RefundIdParams },
    responses: ok('Cancelled', CancelRefundResponse),
  },
]);
