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
    description: 'Newest first, filtered by status and currency, paged with `limit` and `offset`.',
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
    description:
      "One withdrawal with its status, the fee split and, once sent, its transaction hash. Another merchant's withdrawal is 404.",
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
    description: "The dashboard's view of GET /withdrawals/api/list.",
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
    description: "The dashboard's view of GET /withdrawals/api/{id}.",
    request: { params: WithdrawalIdParams },
    responses: ok('Withdrawal', WithdrawalResponse),
  },
]);
