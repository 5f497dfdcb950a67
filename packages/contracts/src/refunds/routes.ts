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
    responses: { 201: { description: 'Refund created (pending)', schema: CreateRefundResponse } },
  },
  {
    ...refunds,
    operationId: 'listRefunds',
    method: 'get',
    path: '/refunds/api/list',
    dashboard: '/refunds',
    scope: 'refunds:read',
    summary: 'List refunds',
    request: { query: RefundListQuery },
    responses: { 200: { description: 'A page of refunds', schema: RefundListResponse } },
  },
  {
    ...refunds,
    operationId: 'getRefund',
    method: 'get',
    path: '/refunds/api/:id',
    dashboard: '/refunds/:id',
    scope: 'refunds:read',
    summary: 'Get a refund',
    request: { params: RefundIdParams },
    responses: { 200: { description: 'Refund detail', schema: RefundDetailResponse } },
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
    responses: { 200: { description: 'Cancelled', schema: CancelRefundResponse } },
  },
]);
