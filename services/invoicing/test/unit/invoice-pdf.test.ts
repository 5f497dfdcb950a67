import { expect } from 'chai';
import type { InvoiceLanguage } from '@stablepay/contracts';
import {
  LABELS,
  formatDecimal,
  loadInvoicingConfig,
  renderInvoicePdf,
  sellerOf,
  type InvoiceRecord,
} from '../../src/index.js';
import { pdfFonts, popplerText } from '../support/poppler.js';
import { pdfText } from '../support/pdf-text.js';

const invoice = (over: Partial<InvoiceRecord> = {}): InvoiceRecord => ({
  id: '0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
  merchantId: '1b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
  withdrawalId: '2b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
  invoiceNumber: 'INV-2026-0042',
  prefix: 'INV',
  year: 2026,
  sequence: 42,
  status: 'issued',
  issuedAt: new Date('2026-03-04T10:00:00Z'),
  currency: 'USDC',
  blockchain: 'BASE',
  grossAmount: '1234.500000',
  serviceFee: '6.172500',
  netAmount: '1228.327500',
  feeRate: '0.005000',
  eurRate: '0.920000',
  eurRateDate: '2026-03-04',
  eurRateSource: 'fixed',
  serviceFeeEur: '5.68',
  taxCase: 'domestic',
  taxRateBp: 1900,
  vatCountry: 'DE',
  taxAmount: '0.985525',
  taxAmountEur: '0.91',
  language: 'en',
  seller: {
    name: 'Stablepay GmbH',
    addressLines: ['Hauptstraße 1', '10115 Berlin'],
    country: 'DE',
    vatNumber: 'DE999999999',
  },
  customer: {
    name: 'Müller & Söhne KG',
    addressLines: ['Marktplatz 5', '80331 München'],
    country: 'DE',
    vatNumber: null,
  },
  destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
  netTxHash: `0x${'ab'.repeat(32)}`,
  feeTxHash: `0x${'cd'.repeat(32)}`,
  withdrawalCompletedAt: new Date('2026-03-04T09:59:00Z'),
  rectifiesInvoiceId: null,
  rectifiedByInvoiceId: null,
  rectificationReason: null,
  rectifiesInvoiceNumber: null,
  pdfKey: 'm/2026/INV-2026-0042.pdf',
  pdfStoredAt: null,
  ...over,
});

describe('the invoice PDF', function () {
  this.timeout(20_000);

  it('writes numbers the way each language does, from the decimal text', () => {
    expect(formatDecimal('1234567.500000', 'en')).to.equal('1,234,567.500000');
    expect(formatDecimal('1234567.50', 'de')).to.equal('1.234.567,50');
    expect(formatDecimal('1234.50', 'fr')).to.equal('1\u00a0234,50');
    expect(formatDecimal('999.5', 'it')).to.equal('999,5');
    expect(formatDecimal('19', 'es')).to.equal('19');
  });

  const expectations: Record<InvoiceLanguage, string[]> = {
    en: [
      'INVOICE',
      'Issue date 2026-03-04',
      'Withdrawal service fee (0.5 % of 1,234.500000 USDC)',
      'VAT 19 %',
      '0.985525 USDC',
      '5.68 EUR',
    ],
    de: [
      'RECHNUNG',
      'Rechnungsdatum 04.03.2026',
      'Servicegebühr für die Auszahlung (0,5 % von 1.234,500000 USDC)',
      'Umsatzsteuer 19 %',
      '0,985525 USDC',
      '5,68 EUR',
    ],
    fr: [
      'FACTURE',
      "Date d'émission 04/03/2026",
      'Frais de service du retrait (0,5 % de 1\u00a0234,500000 USDC)',
      'TVA 19 %',
      'Total TTC',
    ],
    es: [
      'FACTURA',
      'Fecha de emisión 04/03/2026',
      'Comisión de servicio por la retirada (0,5 % de 1.234,500000 USDC)',
      'IVA 19 %',
    ],
    it: [
      'FATTURA',
      'Data di emissione 04/03/2026',
      'Commissione di servizio per il prelievo (0,5 % di 1.234,500000 USDC)',
      'IVA 19 %',
      'Totale',
    ],
  };
  for (const [language, expected] of Object.entries(expectations) as Array<[InvoiceLanguage, string[]]>) {
    it(`is written in ${language}, with seller, customer, fee, VAT and both transactions`, async () => {
      const text = await pdfText(await renderInvoicePdf(invoice({ language })));
      const common = [
        'INV-2026-0042',
        'Stablepay GmbH',
        'Müller & Söhne KG',
        '80331 München',
        `0x${'ab'.repeat(32)}`,
        `0x${'cd'.repeat(32)}`,
      ];
      for (const e of [...common, ...expected])
        expect(text.replace(/\u00a0/g, ' ')).to.contain(e.replace(/\u00a0/g, ' '));
    });
  }

  it('names the network as people call it, in every language, never by its ticker-like id', async () => {
    const network: Record<InvoiceLanguage, string> = {
      en: 'Network',
      de: 'Netzwerk',
      fr: 'Réseau',
      es: 'Red',
      it: 'Rete',
    };
    for (const [language, label] of Object.entries(network) as Array<[InvoiceLanguage, string]>) {
      const base = await popplerText(await renderInvoicePdf(invoice({ language })));
      expect(base, language).to.match(new RegExp(`${label} +Base\\n`));
      expect(base, language).not.to.match(/\bBASE\b/);
      const polygon = await popplerText(await renderInvoicePdf(invoice({ language, blockchain: 'MATIC' })));
      expect(polygon, language).to.match(new RegExp(`${label} +Polygon PoS\\n`));
      expect(polygon, language).not.to.contain('MATIC');
    }
  });

  it("names the exchange rate's source in the invoice's language, never by its stored code", async () => {
    const cases: Array<[InvoiceLanguage, string, string]> = [
      ['en', 'ecb', '(ECB reference rate, '],
      ['de', 'fixed', '(fester Kurs, '],
      ['fr', 'ecb', '(taux de référence de la BCE, '],
      ['es', 'par', '(a la par, '],
      ['it', 'fixed', '(tasso fisso, '],
    ];
    for (const [language, eurRateSource, expected] of cases) {
      const text = await popplerText(await renderInvoicePdf(invoice({ language, eurRateSource })));
      expect(text.replace(/\s+/g, ' '), language).to.contain(expected);
    }
  });

  it('names the minimum fee when it applies, with what the rate alone would have charged', async () => {
    const minimum = invoice({
      grossAmount: '4.000000',
      serviceFee: '0.100000',
      netAmount: '3.900000',
      serviceFeeEur: '0.09',
      taxAmount: '0.015966',
      taxAmountEur: '0.01',
    });
    const expected: Record<InvoiceLanguage, string> = {
      en: 'Minimum withdrawal service fee (0.5 % of 4.000000 USDC would be 0.020000 USDC)',
      de: 'Mindestservicegebühr für die Auszahlung (0,5 % von 4,000000 USDC wären 0,020000 USDC)',
      fr: 'Frais de service minimum du retrait (0,5 % de 4,000000 USDC feraient 0,020000 USDC)',
      es: 'Comisión mínima de servicio por la retirada (el 0,5 % de 4,000000 USDC serían 0,020000 USDC)',
      it: 'Commissione minima di servizio per il prelievo (lo 0,5 % di 4,000000 USDC sarebbe 0,020000 USDC)',
    };
    for (const [language, line] of Object.entries(expected) as Array<[InvoiceLanguage, string]>) {
      const text = (await pdfText(await renderInvoicePdf({ ...minimum, language }))).replace(/\s+/g, ' ');
      expect(text, language).to.contain(line);
      expect(text, language).to.not.contain(LABELS[language].feeLine('0,5', '4,000000 USDC'));
    }
    // At exactly the minimum, the rate charged it: the rate's line.
    const atMinimum = invoice({ grossAmount: '20.000000', serviceFee: '0.100000', netAmount: '19.900000' });
    const text = (await pdfText(await renderInvoicePdf(atMinimum))).replace(/\s+/g, ' ');
    expect(text).to.contain('Withdrawal service fee (0.5 % of 20.000000 USDC)');
  });

  it('carries the legal mention of the reverse charge, and what it corrects', async () => {
    const text = await pdfText(
      await renderInvoicePdf(
        invoice({
          taxCase: 'reverse_charge',
          taxRateBp: 0,
          taxAmount: '0.000000',
          taxAmountEur: '0.00',
          rectifiesInvoiceId: '3b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
          rectifiesInvoiceNumber: 'INV-2026-0040',
          rectificationReason: 'VAT number added',
        }),
      ),
    );
    expect(text).to.contain(LABELS.en.reverseCharge);
    expect(text).to.contain('CORRECTIVE INVOICE');
    expect(text).to.contain(
      'This invoice corrects and replaces invoice INV-2026-0040. Reason: VAT number added',
    );
  });

  it('is the same document every time it is rendered', async () => {
    const a = await renderInvoicePdf(invoice());
    const b = await renderInvoicePdf(invoice());
    expect(a.equals(b)).to.equal(true);
  });

  /** The seller as production configures it: legal name, address in its parts, VAT number. */
  const seller = (env: Record<string, string> = {}) =>
    sellerOf(
      loadInvoicingConfig({
        NODE_ENV: 'production',
        INTERNAL_TOKEN_SECRET: 'x'.repeat(32),
        TREASURY_ADDRESS: '0x7e5f4552091a69125d5dfcb7b8c2659029395bdf',
        SELLER_NAME: 'Stablepay Demo GmbH',
        SELLER_STREET: 'Musterstraße 12 | Aufgang B',
        SELLER_POSTCODE: '10115',
        SELLER_CITY: 'Berlin',
        SELLER_COUNTRY: 'DE',
        SELLER_VAT_NUMBER: 'DE123456789',
        ...env,
      }),
    );

  /** The seller block: the top-left column under the heading, read down to its first gap. */
  const sellerBlock = async (pdf: Buffer): Promise<string[]> => {
    const text = await popplerText(pdf, { x: 40, y: 90, width: 165, height: 150 });
    const lines = text.split('\n').map((line) => line.trim());
    return lines.slice(0, lines.indexOf(''));
  };

  it('names the seller as Article 226 requires: legal name, full address and VAT number, in every language', async () => {
    const country: Record<InvoiceLanguage, string> = {
      en: 'Germany',
      de: 'Deutschland',
      fr: 'Allemagne',
      es: 'Alemania',
      it: 'Germania',
    };
    for (const language of Object.keys(LABELS) as InvoiceLanguage[]) {
      const l = LABELS[language];
      const pdf = await renderInvoicePdf(invoice({ language, seller: seller() }));
      expect(await sellerBlock(pdf), language).to.deep.equal([
        l.seller.toUpperCase(),
        'Stablepay Demo GmbH',
        'Musterstraße 12',
        'Aufgang B',
        '10115 Berlin',
        country[language],
        `${l.vatNumber} DE123456789`,
      ]);
    }
  });

  it("prints the seller's tax number when it has no VAT number, and Ireland's postcode after the city", async () => {
    const taxNumber = seller({ SELLER_VAT_NUMBER: '', SELLER_TAX_NUMBER: '12/345/67890' });
    expect(await sellerBlock(await renderInvoicePdf(invoice({ seller: taxNumber })))).to.deep.equal([
      'FROM',
      'Stablepay Demo GmbH',
      'Musterstraße 12',
      'Aufgang B',
      '10115 Berlin',
      'Germany',
      'Tax no. 12/345/67890',
    ]);
    const irish = seller({
      SELLER_NAME: 'Stablepay Demo Ltd',
      SELLER_STREET: '12 Example Street',
      SELLER_POSTCODE: 'D02 X285',
      SELLER_CITY: 'Dublin 2',
      SELLER_COUNTRY: 'IE',
      SELLER_VAT_NUMBER: 'IE1234567T',
    });
    expect(await sellerBlock(await renderInvoicePdf(invoice({ seller: irish })))).to.deep.equal([
      'FROM',
      'Stablepay Demo Ltd',
      '12 Example Street',
      'Dublin 2 D02 X285',
      'Ireland',
      'VAT no. IE1234567T',
    ]);
  });

  it('embeds every font it uses, with the letters of every EU language', async () => {
    const pdf = await renderInvoicePdf(
      invoice({
        language: 'de',
        customer: {
          name: 'Łódź Logistyka Sp. z o.o.',
          addressLines: ['Őrség Kft. c/o Ελληνικά Α.Ε.', 'ul. Piotrkowska 1', '90-001 Łódź'],
          country: 'PL',
          vatNumber: 'PL1234567890',
        },
      }),
    );
    const fonts = await pdfFonts(pdf);
    expect(fonts).to.not.be.empty;
    for (const font of fonts) {
      expect(font.embedded, font.name).to.equal(true);
      expect(font.name).to.match(/^[A-Z]{6}\+Roboto-/);
    }
    const text = await popplerText(pdf);
    for (const line of ['Łódź Logistyka Sp. z o.o.', 'Őrség Kft. c/o Ελληνικά Α.Ε.', '90-001 Łódź', 'Polen'])
      expect(text).to.contain(line);
  });
});
