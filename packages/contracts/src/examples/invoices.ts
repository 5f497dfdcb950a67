import type { ExampleTable } from './example.js';

export const invoicesExamples: ExampleTable = {
  listInvoicesApi: {
    responses: {
      200: {
        success: true,
        data: [
          {
            id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
            invoice_number: 'INV-2026-0042',
            issued_at: '2026-11-27T10:15:00.000Z',
            gross_amount: '25.00',
            service_fee: '25.00',
            service_fee_eur: '25.00',
            tax_amount: '25.00',
            net_amount: '25.00',
            currency: 'USDC',
            status: 'issued',
            pdf_url: 'https://shop.example/x',
            blockchain: 'BASE',
            withdrawal_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
            tax_case: 'domestic',
            tax_rate: '25.00',
            rectifies_invoice_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
            rectified_by_invoice_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          },
        ],
      },
    },
  },
  getInvoicePdfApi: {
    request: {
      params: {
        id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {},
  },
  listInvoices: {
    responses: {
      200: {
        success: true,
        data: [
          {
            id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
            invoice_number: 'INV-2026-0042',
            issued_at: '2026-11-27T10:15:00.000Z',
            gross_amount: '25.00',
            service_fee: '25.00',
            service_fee_eur: '25.00',
            tax_amount: '25.00',
            net_amount: '25.00',
            currency: 'USDC',
            status: 'issued',
            pdf_url: 'https://shop.example/x',
            blockchain: 'BASE',
            withdrawal_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
            tax_case: 'domestic',
            tax_rate: '25.00',
            rectifies_invoice_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
            rectified_by_invoice_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          },
        ],
      },
    },
  },
  getInvoicePdf: {
    request: {
      params: {
        id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {},
  },
  rectifyInvoice: {
    request: {
      body: {
        reason: 'Wrong VAT number on the original invoice',
      },
      params: {
        id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      201: {
        success: true,
        data: {
          id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          invoice_number: 'INV-2026-0042',
          issued_at: '2026-11-27T10:15:00.000Z',
          gross_amount: '25.00',
          service_fee: '25.00',
          service_fee_eur: '25.00',
          tax_amount: '25.00',
          net_amount: '25.00',
          currency: 'USDC',
          status: 'issued',
          pdf_url: 'https://shop.example/x',
          blockchain: 'BASE',
          withdrawal_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          tax_case: 'domestic',
          tax_rate: '25.00',
          rectifies_invoice_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          rectified_by_invoice_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
        },
      },
    },
  },
  getBillingProfile: {
    responses: {
      200: {
        success: true,
        data: {
          legal_name: 'Acme Coffee',
          address_line1: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          address_line2: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          postal_code: '10115',
          city: 'Berlin',
          country: 'DE',
          vat_number: null,
          language: 'en',
          updated_at: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
  updateBillingProfile: {
    request: {
      body: {
        legal_name: 'Acme Coffee',
        address_line1: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
        address_line2: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
        postal_code: '10115',
        city: 'Berlin',
        country: 'DE',
        vat_number: null,
        language: 'en',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          legal_name: 'Acme Coffee',
          address_line1: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          address_line2: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          postal_code: '10115',
          city: 'Berlin',
          country: 'DE',
          vat_number: null,
          language: 'en',
          updated_at: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
};
