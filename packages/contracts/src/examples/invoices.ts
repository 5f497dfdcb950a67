import type { ExampleTable } from './example.js';
import { byId, ok, sample } from './objects.js';

const invoice = {
  id: sample.id,
  invoice_number: 'INV-2026-0042',
  issued_at: sample.at,
  gross_amount: sample.amount,
  service_fee: sample.amount,
  service_fee_eur: sample.amount,
  tax_amount: sample.amount,
  net_amount: sample.amount,
  currency: 'USDC',
  status: 'issued',
  pdf_url: sample.link,
  blockchain: 'BASE',
  withdrawal_id: sample.id,
  tax_case: 'domestic',
  tax_rate: sample.amount,
  rectifies_invoice_id: sample.id,
  rectified_by_invoice_id: sample.id,
};

const billingProfile = {
  legal_name: sample.merchantName,
  address_line1: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
  address_line2: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
  postal_code: '10115',
  city: 'Berlin',
  country: 'DE',
  vat_number: null,
  language: 'en',
};

const profileAnswer = { 200: ok({ ...billingProfile, updated_at: sample.at }) };

const list = { responses: { 200: ok([invoice]) } };
/** The PDF is not JSON: the example names only the invoice. */
const pdf = { request: byId(), responses: {} };

export const invoicesExamples: ExampleTable = {
  listInvoicesApi: list,
  getInvoicePdfApi: pdf,
  listInvoices: list,
  getInvoicePdf: pdf,
  rectifyInvoice: {
    request: { body: { reason: 'Wrong VAT number on the original invoice' }, ...byId() },
    responses: { 201: ok(invoice) },
  },
  getBillingProfile: { responses: profileAnswer },
  updateBillingProfile: { request: { body: billingProfile }, responses: profileAnswer },
};
