import {
  BalanceTransactionListQuery,
  BalanceTransactionListResponse,
  BillingProfileResponse,
  CancelRefundResponse,
  CreateRefundBody,
  CreateRefundResponse,
  CreateWithdrawalBody,
  CreateWithdrawalResponse,
  InvoiceIdParams,
  InvoiceListQuery,
  InvoiceListResponse,
  InvoicePdfQuery,
  PDF_CONTENT_TYPE,
  RectifyInvoiceBody,
  RectifyInvoiceResponse,
  RefundDetailResponse,
  RefundIdParams,
  RefundListQuery,
  RefundListResponse,
  UpdateBillingProfileBody,
  WalletBalanceResponse,
  WithdrawalIdParams,
  WithdrawalListQuery,
  WithdrawalListResponse,
  WithdrawalResponse,
} from '../http/index.js';
import type { RouteSpec } from './types.js';

const invoices = { service: 'invoicing', tags: ['Invoices'] } as const;
const withdrawals = { service: 'invoicing', tags: ['Withdrawals'], extension: true } as const;
const createWithdrawalDescription =
  'The destination must be an address on the withdrawal address book whose hold has passed: otherwise ' +
  '422 with `details[].code` `destination_not_approved` (not on the book, or removed) or ' +
  '`destination_on_hold` (its message names `usable_from`), and nothing moves. Other refusals (422): ' +
  '`nothing_available`, `amount_exceeds_available`, `amount_below_fee`, `unsupported_chain`, ' +
  '`unsupported_token`, `invalid_destination`.';
const billing = { service: 'invoicing', tags: ['Invoices'], extension: true, auth: 'jwt' } as const;
const refunds = { service: 'refunds', tags: ['Refunds'], auth: 'key' } as const;
const balanceTransactions = {
  service: 'chain-watcher',
  tags: ['Balance transactions'],
  extension: true,
  method: 'get',
  noStore: true,
  description:
    'The ledger entries of the merchant wallet, newest first: every token movement in or out with the ' +
    'wallet balance after it. `format=csv` or `Accept: text/csv` answers a CSV export of the same ' +
    'filters (all matching rows up to 10,000; `limit` and `offset` are ignored).',
  request: { query: BalanceTransactionListQuery },
  responses: {
    200: {
      description: 'A page of balance transactions (or the CSV export)',
      schema: BalanceTransactionListResponse,
      textAlternatives: ['text/csv'],
    },
  },
} as const;
const pdf = { 200: { description: 'The invoice PDF', contentType: PDF_CONTENT_TYPE } };

const listInvoices = {
  ...invoices,
  method: 'get',
  summary: 'List invoices, newest first',
  request: { query: InvoiceListQuery },
  responses: { 200: { description: 'Invoices', schema: InvoiceListResponse } },
} as const;
const invoicePdf = {
  ...invoices,
  method: 'get',
  summary: 'Invoice PDF (mode=view: inline, mode=download: attachment)',
  request: { params: InvoiceIdParams, query: InvoicePdfQuery },
  responses: pdf,
} as const;

export const moneyRoutes = [
  {
    ...balanceTransactions,
    operationId: 'listBalanceTransactionsApi',
    path: '/balance-transactions/api/list',
    auth: 'key',
    scope: 'ledger:read',
    summary: 'List the wallet’s balance transactions (ledger entries)',
  },
  {
    ...balanceTransactions,
    operationId: 'listBalanceTransactions',
    path: '/balance-transactions',
    auth: 'jwt',
    summary: 'List the wallet’s balance transactions (dashboard)',
  },
  {
    ...listInvoices,
    operationId: 'listInvoicesApi',
    path: '/invoices/api/list',
    auth: 'key',
    scope: 'invoices:read',
  },
  {
    ...invoicePdf,
    operationId: 'getInvoicePdfApi',
    path: '/invoices/api/:id/pdf',
    auth: 'key',
    scope: 'invoices:read',
  },
  { ...listInvoices, operationId: 'listInvoices', path: '/invoices', auth: 'jwt' },
  { ...invoicePdf, operationId: 'getInvoicePdf', path: '/invoices/:id/pdf', auth: 'jwt' },
  {
    ...invoices,
    extension: true,
    operationId: 'rectifyInvoice',
    method: 'post',
    path: '/invoices/:id/rectify',
    auth: 'jwt',
    summary: 'Correct an issued invoice with a rectifying invoice',
    description:
      'The invoice becomes rectified; a new invoice with the next number, the current billing profile and ' +
      'the same amounts replaces it and names it. Only an invoice in status issued can be rectified (409).',
    request: { params: InvoiceIdParams, body: RectifyInvoiceBody },
    responses: { 201: { description: 'The rectifying invoice', schema: RectifyInvoiceResponse } },
  },
  {
    ...billing,
    operationId: 'getBillingProfile',
    method: 'get',
    path: '/billing-profile',
    summary: 'The billing profile invoices are addressed with',
    responses: { 200: { description: 'Billing profile', schema: BillingProfileResponse } },
  },
  {
    ...billing,
    operationId: 'updateBillingProfile',
    method: 'put',
    path: '/billing-profile',
    summary: 'Replace the billing profile (applies to invoices issued from now on)',
    request: { body: UpdateBillingProfileBody },
    responses: { 200: { description: 'Billing profile', schema: BillingProfileResponse } },
  },
  {
    // Service-to-service: the notifier attaches the PDF to the invoice e-mail.
    service: 'invoicing',
    tags: ['Internal'],
    auth: 'service',
    internal: true,
    operationId: 'getInternalInvoicePdf',
    method: 'get',
    path: '/internal/invoices/:id/pdf',
    summary: 'The PDF of an invoice, for the invoice e-mail',
    request: { params: InvoiceIdParams },
    responses: pdf,
  },

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
    responses: { 201: { description: 'Withdrawal requested', schema: CreateWithdrawalResponse } },
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
    responses: { 200: { description: 'A page of withdrawals', schema: WithdrawalListResponse } },
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
    responses: { 200: { description: 'Withdrawal', schema: WithdrawalResponse } },
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
    responses: { 201: { description: 'Withdrawal requested', schema: CreateWithdrawalResponse } },
  },
  {
    ...withdrawals,
    operationId: 'listWithdrawals',
    method: 'get',
    path: '/withdrawals',
    auth: 'jwt',
    summary: 'List withdrawals (dashboard)',
    request: { query: WithdrawalListQuery },
    responses: { 200: { description: 'A page of withdrawals', schema: WithdrawalListResponse } },
  },
  {
    ...withdrawals,
    operationId: 'getWithdrawal',
    method: 'get',
    path: '/withdrawals/:id',
    auth: 'jwt',
    summary: 'Get a withdrawal (dashboard)',
    request: { params: WithdrawalIdParams },
    responses: { 200: { description: 'Withdrawal', schema: WithdrawalResponse } },
  },

  {
    service: 'chain-watcher',
    tags: ['Wallets'],
    operationId: 'getWalletBalance',
    method: 'get',
    path: '/wallets/api/balance',
    auth: 'key',
    scope: 'balance:read',
    summary: 'Token balances of the primary wallet (Cache-Control: no-store)',
    noStore: true,
    responses: { 200: { description: 'Balances', schema: WalletBalanceResponse } },
  },

  {
    ...refunds,
    operationId: 'createRefund',
    method: 'post',
    path: '/refunds/api/create',
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
    scope: 'refunds:write',
    summary: 'Cancel a pending refund',
    description: 'Only a refund in status pending can be cancelled; otherwise 409.',
    request: { params: RefundIdParams },
    responses: { 200: { description: 'Cancelled', schema: CancelRefundResponse } },
  },
] as const satisfies readonly RouteSpec[];
