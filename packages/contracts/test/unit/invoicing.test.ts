import { expect } from 'chai';
import {
  CreateWithdrawalBody,
  Invoice,
  InvoicePdfQuery,
  RectifyInvoiceBody,
  UpdateBillingProfileBody,
  WithdrawalListQuery,
  createEvent,
  routeById,
} from '../../src/index.js';

const ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const UUID = '0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f';
const HASH = `0x${'ab'.repeat(32)}`;

describe('withdrawal contracts', () => {
  it('takes a token and a destination, the amount optional (everything available)', () => {
    expect(CreateWithdrawalBody.parse({ currency: 'USDC', destination_address: ADDRESS })).to.deep.equal({
      currency: 'USDC',
      destination_address: ADDRESS,
    });
    expect(
      CreateWithdrawalBody.parse({ amount: '10.5', currency: 'EURC', destination_address: ADDRESS }),
    ).to.include({
      amount: '10.500000',
    });
  });

  it('refuses a bad address, an unknown token or chain, and amounts that are not positive 6-decimal strings', () => {
    const bad = [
      { currency: 'USDC', destination_address: '0x1234' },
      { currency: 'USDT', destination_address: ADDRESS },
      { currency: 'USDC', destination_address: ADDRESS, blockchain: 'SOLANA' },
      { currency: 'USDC', destination_address: ADDRESS, amount: '0' },
      { currency: 'USDC', destination_address: ADDRESS, amount: '1.0000001' },
      { currency: 'USDC', destination_address: ADDRESS, amount: 5 },
    ];
    for (const body of bad)
      expect(CreateWithdrawalBody.safeParse(body).success, JSON.stringify(body)).to.equal(false);
  });

  it('lists with status, currency and page parameters', () => {
    expect(WithdrawalListQuery.parse({})).to.deep.equal({ limit: 50, offset: 0 });
    expect(WithdrawalListQuery.parse({ status: 'requested', limit: '200' })).to.include({ limit: 200 });
    expect(WithdrawalListQuery.safeParse({ status: 'pending' }).success).to.equal(false);
    expect(WithdrawalListQuery.safeParse({ limit: '201' }).success).to.equal(false);
  });

  it('serves the dashboard and API-key forms of every withdrawal route', () => {
    expect(routeById('createWithdrawal')).to.include({ path: '/withdrawals', auth: 'jwt', method: 'post' });
    expect(routeById('createWithdrawalApi')).to.include({ path: '/withdrawals/api/create', auth: 'key' });
    expect(routeById('getWithdrawalApi')).to.include({ path: '/withdrawals/api/:id', auth: 'key' });
  });
});

describe('invoice and billing contracts', () => {
  it('has the spec fields of an invoice', () => {
    const invoice = {
      id: UUID,
      invoice_number: 'INV-2026-0001',
      issued_at: '2026-01-02T03:04:05.000Z',
      gross_amount: '100.000000',
      service_fee: '0.500000',
      service_fee_eur: '0.46',
      tax_amount: '0.079832',
      net_amount: '99.500000',
      currency: 'USDC',
      status: 'issued',
      pdf_url: `${UUID}/2026/INV-2026-0001.pdf`,
      blockchain: 'BASE',
      withdrawal_id: UUID,
      tax_case: 'domestic',
      tax_rate: '19.00',
      rectifies_invoice_id: null,
      rectified_by_invoice_id: null,
    };
    expect(Invoice.parse(invoice)).to.deep.equal(invoice);
    expect(Invoice.safeParse({ ...invoice, invoice_number: 'INV-26-1' }).success).to.equal(false);
  });

  it('views a PDF inline unless asked to download it', () => {
    expect(InvoicePdfQuery.parse({})).to.deep.equal({ mode: 'view' });
    expect(InvoicePdfQuery.parse({ mode: 'download' })).to.deep.equal({ mode: 'download' });
    expect(InvoicePdfQuery.safeParse({ mode: 'print' }).success).to.equal(false);
  });

  it('normalises the country and the VAT number of a billing profile', () => {
    const p = UpdateBillingProfileBody.parse({
      legal_name: ' Shop GmbH ',
      address_line1: 'Hauptstr. 1',
      postal_code: '10115',
      city: 'Berlin',
      country: 'de',
      vat_number: 'de 123.456-789',
    });
    expect(p).to.deep.include({
      legal_name: 'Shop GmbH',
      country: 'DE',
      vat_number: 'DE123456789',
      language: 'en',
    });
    expect(UpdateBillingProfileBody.safeParse({ ...p, country: 'DEU' }).success).to.equal(false);
    expect(UpdateBillingProfileBody.safeParse({ ...p, language: 'nl' }).success).to.equal(false);
    expect(UpdateBillingProfileBody.safeParse({ ...p, legal_name: '' }).success).to.equal(false);
  });

  it('requires a reason to rectify', () => {
    expect(RectifyInvoiceBody.safeParse({}).success).to.equal(false);
    expect(RectifyInvoiceBody.parse({ reason: ' wrong address ' })).to.deep.equal({
      reason: 'wrong address',
    });
  });

  it('validates the withdrawal and invoice events', () => {
    const base = {
      withdrawalId: UUID,
      merchantId: UUID,
      amount: '100.000000',
      fee: '0.500000',
      netAmount: '99.500000',
      currency: 'USDC',
      blockchain: 'BASE',
      destinationAddress: ADDRESS,
      treasuryAddress: ADDRESS,
    } as const;
    const completed = createEvent({
      type: 'withdrawal.completed',
      producer: 'invoicing',
      correlationId: UUID,
      merchantId: UUID,
      data: { ...base, txHash: HASH, feeTxHash: HASH, completedAt: '2026-01-02T03:04:05.000Z' },
    });
    expect(completed.data.feeTxHash).to.equal(HASH);
    expect(() =>
      createEvent({
        type: 'invoice.issued',
        producer: 'invoicing',
        correlationId: UUID,
        merchantId: UUID,
        data: { invoiceId: UUID } as never,
      }),
    ).to.throw();
  });
});
