import { created, ok } from '../catalogue/responses.js';
import { routeTable } from '../catalogue/route-spec.js';
import {
  CreateWithdrawalBody,
  CreateWithdrawalResponse,
  WithdrawalIdParams,
  WithdrawalListQuery,
  WithdrawalListResponse,
  WithdrawalResponse,
} from './schemas.js';

const withdrawals = { service: 'invoicing', tags: ['Withdrawals'], extension: true } as const;

const createWithdrawalDescription =
  'The destination must be an address on the withdrawal address book whose hold has passed: otherwise ' +
  '422 with `details[].code` `destination_not_approved` (not on the book, or removed) or ' +
  '`destination_on_hold` (its message names `usable_from`), and nothing moves. Other refusals (422): ' +
  '`nothing_available`, `amount_exceeds_available`, `amount_below_fee`, `unsupported_chain`, ' +
  '`unsupported_token`, `invalid_destination`.';

export const withdrawalRoutes = routeTable([
  {
    ...withdrawals,
    operationId: 'createWithdrawalApi',
    method: 'post',
    path: '/withdrawals/api/create',
    auth: 'key',
    scope: 'withdrawals:write',
    summary: 'Withdraw funds from the merchant wallet',
    description: createWithdrawalDescription,
    request: { body: CreateWithdrawalBody },
    responses: created('Withdrawal requested', CreateWithdrawalResponse),
  },
  {
    ...withdrawals,
    operationId: 'listWithdrawalsApi',
    method: 'get',
    path: '/withdrawals/api/list',
    auth: 'key',
    scope: 'withdrawals:read',
    summary: 'List withdrawals',
    request: { query: WithdrawalListQuery },
    responses: ok('A page of withdrawals', WithdrawalListResponse),
  },
  {
    ...withdrawals,
    operationId: 'getWithdrawalApi',
    method: 'get',
    path: '/withdrawals/api/:id',
    auth: 'key',
    scope: 'withdrawals:read',
    summary: 'Get a withdrawal',
    request: { params: WithdrawalIdParams },
    responses: ok('Withdrawal', WithdrawalResponse),
  },
  {
    ...withdrawals,
    operationId: 'createWithdrawal',
    method: 'post',
    path: '/withdrawals',
    auth: 'jwt',
    summary: 'Withdraw funds from the merchant wallet (dashboard)',
    description: createWithdrawalDescription,
    request: { body: CreateWithdrawalBody },
    responses: created('Withdrawal requested', CreateWithdrawalResponse),
  },
  {
    ...withdrawals,
    operationId: 'listWithdrawals',
    method: 'get',
    path: '/withdrawals',
    auth: 'jwt',
    summary: 'List withdrawals (dashboard)',
    request: { query: WithdrawalListQuery },
    responses: ok('A page of withdrawals', WithdrawalListResponse),
  },
  {
    ...withdrawals,
    operationId: 'getWithdrawal',
    method: 'get',
    path: '/withdrawals/:id',
    auth: 'jwt',
    summary: 'Get a withdrawal (dashboard)',
    request: { params: WithdrawalIdParams },
    responses: ok('Withdrawal', WithdrawalResponse),
  },
]);
