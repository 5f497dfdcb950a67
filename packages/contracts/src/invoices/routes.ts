import { created, ok } from '../catalogue/responses.js';
import { internalRoute, routeTable } from '../catalogue/route-spec.js';
import { BillingProfileResponse, UpdateBillingProfileBody } from './billing.js';
import {
  InvoiceIdParams,
  InvoiceListQuery,
  InvoiceListResponse,
  InvoicePdfQuery,
  PDF_CONTENT_TYPE,
  RectifyInvoiceBody,
  RectifyInvoiceResponse,
} from './schemas.js';

const invoices = { service: 'invoicing', tags: ['Invoices'] } as const;

const billing = { service: 'invoicing', tags: ['Invoices'], extension: true, auth: 'jwt' } as const;

const pdf = { 200: { description: 'The invoice PDF', contentType: PDF_CONTENT_TYPE } };

const listInvoices = {
  ...invoices,
  method: 'get',
  summary: 'List invoices, newest first',
  description:
    "The merchant's invoices of platform fees, filtered by year and status; each names its number, " +
    'amounts and status: `issued`, or `rectified` when a later invoice corrected it.',
  request: { query: InvoiceListQuery },
  responses: ok('Invoices', InvoiceListResponse),
} as const;

const invoicePdf = {
  ...invoices,
  method: 'get',
  summary: 'Invoice PDF (mode=view: inline, mode=download: attachment)',
  description:
    "The invoice as a PDF, streamed. Another merchant's invoice is 404. The file is the one issued: " +
    'it never changes, even when the billing profile does.',
  request: { params: InvoiceIdParams, query: InvoicePdfQuery },
  responses: pdf,
} as const;

export const invoiceRoutes = routeTable([
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
    responses: created('The rectifying invoice', RectifyInvoiceResponse),
  },
  {
    ...billing,
    operationId: 'getBillingProfile',
    method: 'get',
    path: '/billing-profile',
    summary: 'The billing profile invoices are addressed with',
    description:
      'The name, address and VAT number invoices are issued to. Invoices already issued keep the profile they were issued with.',
    responses: ok('Billing profile', BillingProfileResponse),
  },
  {
    ...billing,
    operationId: 'updateBillingProfile',
    method: 'put',
    path: '/billing-profile',
    summary: 'Replace the billing profile (applies to invoices issued from now on)',
    description:
      'Replaces the billing profile; the next invoice is issued to it. An issued invoice is corrected with POST /invoices/{id}/rectify, not by this.',
    request: { body: UpdateBillingProfileBody },
    responses: ok('Billing profile', BillingProfileResponse),
  },
  {
    // Service-to-service: the notifier attaches the PDF to the invoice e-mail.
    ...internalRoute,
    service: 'invoicing',
    operationId: 'getInternalInvoicePdf',
    method: 'get',
    path: '/internal/invoices/:id/pdf',
    summary: 'The PDF of an invoice, for the invoice e-mail',
    request: { params: InvoiceIdParams },
    responses: pdf,
  },
]);
