import { expect } from 'chai';
import { INVOICE_NUMBER_RE, Invoice, InvoiceListResponse } from '@stablepay/contracts';
import { TEST_INTERNAL_SECRET, waitFor } from '@stablepay/platform/testing';
import { INTERNAL_TOKEN_HEADER, signInternalToken } from '@stablepay/platform';
import { pdfText } from '../support/pdf-text.js';
import { saveProfile, startHarness, type Harness, type TestMerchant } from '../support/harness.js';

const YEAR = new Date().getUTCFullYear();

describe('invoices: issue, list, PDF, tax, billing profile, rectification (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;

  before(async () => {
    h = await startHarness({ INVOICE_PREFIX: 'SP' });
  });
  after(async () => h?.close());

  /** A completed withdrawal of `amount` USDC and its invoice. */
  const invoiced = async (m: TestMerchant, amount = '1000', currency = 'USDC') => {
    const w = await h.withdraw(m, { amount, currency });
    const hashes = await h.complete(m, w.id);
    return { w, hashes, invoice: Invoice.parse(await h.waitForInvoice(m, w.id)) };
  };
  const pdf = async (m: TestMerchant, id: string, query = '', via: 'key' | 'jwt' = 'key') => {
    const path = via === 'key' ? `/invoices/api/${id}/pdf${query}` : `/invoices/${id}/pdf${query}`;
    return fetch(`${h.url}${path}`, {
      headers: {
        [INTERNAL_TOKEN_HEADER]: signInternalToken(TEST_INTERNAL_SECRET, {
          caller: via === 'key' ? 'api_key' : 'user',
          merchantId: m.merchantId,
          scopes: via === 'key' ? ['invoices:read'] : undefined,
        }),
      },
    });
  };

  it('issues the invoice of a completed withdrawal with the spec fields, numbered per prefix and year', async () => {
    const m = h.merchant();
    const { w, invoice } = await invoiced(m);
    expect(invoice.invoice_number).to.match(INVOICE_NUMBER_RE);
    expect(invoice.invoice_number).to.match(new RegExp(`^SP-${YEAR}-\\d{4}$`));
    // No billing profile yet: the seller's domestic VAT (Germany, 19 %), VAT contained in the fee.
    expect(invoice).to.deep.include({
      status: 'issued',
      gross_amount: '1000.000000',
      service_fee: '5.000000',
      // In cents, as the invoice states it, written with six decimals like every amount.
      service_fee_eur: '4.600000',
      tax_amount: '0.798319',
      net_amount: '995.000000',
      currency: 'USDC',
      blockchain: 'BASE',
      withdrawal_id: w.id,
      tax_case: 'domestic',
      tax_rate: '19.00',
      rectifies_invoice_id: null,
      rectified_by_invoice_id: null,
      pdf_url: `${m.merchantId}/${YEAR}/${invoice.invoice_number}.pdf`,
    });
    expect(Date.parse(invoice.issued_at)).to.be.closeTo(Date.now(), 60_000);
    const row = await h.db('invoices').where({ id: invoice.id }).first();
    expect(row).to.include({ eur_rate_source: 'fixed', tax_amount_eur: '0.73' });
    expect(row.eur_rate_date).to.equal(new Date().toISOString().slice(0, 10));
  });

  it('lists invoices newest first on both routes, with year and status filters, and hides other merchants', async () => {
    const m = h.merchant();
    const first = (await invoiced(m, '10')).invoice;
    const second = (await invoiced(m, '20')).invoice;
    const byKey = InvoiceListResponse.parse((await h.as(m, 'GET', '/invoices/api/list')).body).data;
    expect(byKey.map((i) => i.id)).to.deep.equal([second.id, first.id]);
    const byJwt = (await h.as(m, 'GET', '/invoices', undefined, 'jwt')).body.data;
    expect(byJwt).to.deep.equal(byKey);
    expect((await h.as(m, 'GET', `/invoices/api/list?year=${YEAR}&status=issued`)).body.data).to.have.length(
      2,
    );
    expect((await h.as(m, 'GET', `/invoices/api/list?year=${YEAR - 1}`)).body.data).to.deep.equal([]);
    expect((await h.as(m, 'GET', '/invoices/api/list?status=rectified')).body.data).to.deep.equal([]);
    expect((await h.as(m, 'GET', '/invoices/api/list?status=void')).status).to.equal(400);
    expect((await h.as(m, 'GET', '/invoices/api/list?year=26')).status).to.equal(400);

    const other = h.merchant();
    expect((await h.as(other, 'GET', '/invoices/api/list')).body.data).to.deep.equal([]);
    const foreign = await pdf(other, first.id);
    expect(foreign.status).to.equal(404);
    expect(await foreign.json()).to.deep.equal({ success: false, error: 'Invoice not found', details: [] });
  });

  it('serves the PDF bytes inline or as an attachment named after the number, on both routes', async () => {
    const m = h.merchant({ USDC: '5000' });
    const { invoice, hashes } = await invoiced(m, '2000');
    const view = await pdf(m, invoice.id);
    expect(view.status).to.equal(200);
    expect(view.headers.get('content-type')).to.equal('application/pdf');
    expect(view.headers.get('content-disposition')).to.equal(
      `inline; filename="${invoice.invoice_number}.pdf"`,
    );
    const bytes = Buffer.from(await view.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).to.equal('%PDF-');

    const download = await pdf(m, invoice.id, '?mode=download', 'jwt');
    expect(download.headers.get('content-disposition')).to.equal(
      `attachment; filename="${invoice.invoice_number}.pdf"`,
    );
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).to.equal(true);
    expect((await pdf(m, invoice.id, '?mode=print')).status).to.equal(400);

    const text = await pdfText(bytes);
    for (const expected of [
      'INVOICE',
      invoice.invoice_number,
      'Stablepay GmbH',
      'Hauptstraße 1',
      'DE999999999',
      'Withdrawal service fee (0.5 % of 2,000.000000 USDC)',
      '10.000000 USDC',
      '9.20 EUR',
      'VAT 19 %',
      '1.596639 USDC',
      'Total',
      'Exchange rate: 1 USDC = 0.920000 EUR (fixed',
      hashes.net,
      hashes.fee,
    ])
      expect(text).to.contain(expected);
  });

  describe('tax from the billing profile and the seller country (Germany)', () => {
    const cases: Array<{
      name: string;
      profile: Record<string, unknown>;
      tax: Record<string, string>;
      pdf: string[];
    }> = [
      {
        name: 'a customer in Germany: domestic VAT at 19 %',
        profile: { country: 'DE', vat_number: 'DE123456789', language: 'de' },
        tax: { tax_case: 'domestic', tax_rate: '19.00', tax_amount: '0.798319' },
        pdf: ['RECHNUNG', 'Umsatzsteuer 19 %', '0,798319 USDC', 'USt-IdNr. DE123456789'],
      },
      {
        name: 'a business in France with a VAT number: reverse charge with the legal mention',
        profile: { country: 'FR', vat_number: 'FR12345678901', language: 'fr' },
        tax: { tax_case: 'reverse_charge', tax_rate: '0.00', tax_amount: '0.000000' },
        pdf: ['FACTURE', 'Autoliquidation', 'article 196 de la directive 2006/112/CE', 'TVA 0 %'],
      },
      {
        name: 'a customer in Italy without a VAT number: VAT of Italy (22 %)',
        profile: { country: 'IT', vat_number: null, language: 'it' },
        tax: { tax_case: 'eu_consumer', tax_rate: '22.00', tax_amount: '0.901639' },
        pdf: ['FATTURA', 'IVA 22 %', 'IVA di IT applicata'],
      },
      {
        name: 'a customer in the United States: outside the scope of EU VAT',
        profile: { country: 'US', vat_number: '12-3456789', language: 'en' },
        tax: { tax_case: 'outside_scope', tax_rate: '0.00', tax_amount: '0.000000' },
        pdf: ['Not subject to EU VAT', 'Article 44'],
      },
      {
        name: 'a business in Spain, in Spanish, under reverse charge',
        profile: { country: 'ES', vat_number: 'ESB12345678', language: 'es' },
        tax: { tax_case: 'reverse_charge', tax_rate: '0.00' },
        pdf: ['FACTURA', 'Inversión del sujeto pasivo'],
      },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const m = h.merchant();
        await saveProfile(h, m, c.profile);
        const { invoice } = await invoiced(m);
        expect(invoice).to.deep.include({ service_fee: '5.000000', ...c.tax });
        const text = await pdfText(Buffer.from(await (await pdf(m, invoice.id)).arrayBuffer()));
        for (const expected of [invoice.invoice_number, 'Shop Ltd', ...c.pdf])
          expect(text).to.contain(expected);
      });
    }
  });

  it('reads and replaces the billing profile (dashboard only), refusing a VAT number of another country', async () => {
    const m = h.merchant();
    const before = await h.as(m, 'GET', '/billing-profile', undefined, 'jwt');
    expect(before.body.data).to.deep.include({
      country: null,
      vat_number: null,
      language: 'en',
      updated_at: null,
    });
    const saved = await saveProfile(h, m, { country: 'at', vat_number: 'atu 1234 5678', language: 'de' });
    expect(saved).to.deep.include({
      country: 'AT',
      vat_number: 'ATU12345678',
      language: 'de',
      address_line2: null,
    });
    expect((await h.as(m, 'GET', '/billing-profile', undefined, 'jwt')).body.data).to.deep.equal(saved);
    const mismatch = await h.as(
      m,
      'PUT',
      '/billing-profile',
      {
        legal_name: 'X',
        address_line1: 'Y',
        postal_code: '1',
        city: 'Z',
        country: 'GR',
        vat_number: 'GR123456789',
      },
      'jwt',
    );
    expect(mismatch.status).to.equal(422);
    expect(mismatch.body.details[0]).to.include({ path: 'vat_number', code: 'vat_number_country_mismatch' });
    expect(mismatch.body.details[0].message).to.contain('EL');
    expect((await h.as(m, 'GET', '/billing-profile')).status).to.equal(403);
  });

  it('rectifies: the original becomes rectified, the next number replaces it, both PDFs stay available', async () => {
    const m = h.merchant();
    const { invoice: original } = await invoiced(m);
    await saveProfile(h, m, {
      legal_name: 'Shop SAS',
      country: 'FR',
      vat_number: 'FR98765432109',
      language: 'en',
    });
    const res = await h.as(
      m,
      'POST',
      `/invoices/${original.id}/rectify`,
      { reason: 'Wrong customer address' },
      'jwt',
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const rectifying = Invoice.parse(res.body.data);
    expect(rectifying).to.deep.include({
      status: 'issued',
      withdrawal_id: original.withdrawal_id,
      rectifies_invoice_id: original.id,
      service_fee: original.service_fee,
      service_fee_eur: original.service_fee_eur,
      tax_case: 'reverse_charge',
      tax_amount: '0.000000',
    });
    const seq = (n: string) => Number(n.split('-')[2]);
    expect(seq(rectifying.invoice_number)).to.be.greaterThan(seq(original.invoice_number));

    const list = (await h.as(m, 'GET', '/invoices/api/list')).body.data as Array<Record<string, any>>;
    expect(list.map((i) => i.id)).to.deep.equal([rectifying.id, original.id]);
    expect(list[1]).to.include({ status: 'rectified', rectified_by_invoice_id: rectifying.id });
    expect(
      (await h.as(m, 'GET', '/invoices/api/list?status=rectified')).body.data.map(
        (i: { id: string }) => i.id,
      ),
    ).to.deep.equal([original.id]);

    const again = await h.as(m, 'POST', `/invoices/${original.id}/rectify`, { reason: 'again' }, 'jwt');
    expect(again.status).to.equal(409);
    expect(again.body.details[0]).to.include({ path: 'id', code: 'invoice_not_issued' });

    const oldText = await pdfText(Buffer.from(await (await pdf(m, original.id)).arrayBuffer()));
    expect(oldText).to.contain(original.invoice_number);
    expect(oldText).to.contain('VAT 19 %');
    await waitFor(() => h.db('invoices').where({ id: rectifying.id }).whereNotNull('pdf_stored_at').first());
    const newText = await pdfText(Buffer.from(await (await pdf(m, rectifying.id)).arrayBuffer()));
    expect(newText).to.contain('CORRECTIVE INVOICE');
    expect(newText).to.contain(
      `This invoice corrects and replaces invoice ${original.invoice_number}. Reason: Wrong customer address`,
    );
    expect(newText).to.contain('Shop SAS');
    expect(newText).to.contain('Reverse charge');

    // A chain: the rectifying invoice can itself be rectified.
    const third = await h.as(
      m,
      'POST',
      `/invoices/${rectifying.id}/rectify`,
      { reason: 'VAT number' },
      'jwt',
    );
    expect(third.status).to.equal(201);
    expect(third.body.data.rectifies_invoice_id).to.equal(rectifying.id);
    const other = h.merchant();
    expect(
      (await h.as(other, 'POST', `/invoices/${original.id}/rectify`, { reason: 'x' }, 'jwt')).status,
    ).to.equal(404);
  });

  it('hands the notifier the PDF on its internal route (service token only)', async () => {
    const m = h.merchant();
    const { invoice } = await invoiced(m, '30');
    const get = (caller: 'service' | 'api_key') =>
      fetch(`${h.url}/internal/invoices/${invoice.id}/pdf`, {
        headers: {
          [INTERNAL_TOKEN_HEADER]: signInternalToken(TEST_INTERNAL_SECRET, {
            caller,
            merchantId: m.merchantId,
          }),
        },
      });
    const res = await get('service');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-disposition')).to.equal(
      `attachment; filename="${invoice.invoice_number}.pdf"`,
    );
    expect((await get('api_key')).status).to.equal(403);
  });
});
