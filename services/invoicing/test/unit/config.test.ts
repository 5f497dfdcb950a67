import { expect } from 'chai';
import { ConfigError } from '@stablepay/platform';
import { loadInvoicingConfig, sellerOf } from '../../src/index.js';

const BASE = {
  INTERNAL_TOKEN_SECRET: 'x'.repeat(32),
  TREASURY_ADDRESS: '0x7e5f4552091a69125d5dfcb7b8c2659029395bdf',
};

describe('invoicing configuration', () => {
  it('applies the defaults', () => {
    expect(loadInvoicingConfig(BASE)).to.include({
      PORT: 8104,
      DATABASE_SCHEMA: 'invoicing',
      CHAIN_WATCHER_URL: 'http://127.0.0.1:8102',
      WITHDRAWAL_FEE_RATE: '0.005000',
      WITHDRAWAL_FEE_MIN: '0.100000',
      INVOICE_PREFIX: 'INV',
      EUR_RATE_SOURCE: 'fixed',
      EUR_RATE_USDC: '0.920000',
      INVOICE_STORAGE: 'local',
      INVOICE_STORAGE_DIR: 'var/invoices',
      WITHDRAWAL_ADDRESS_HOLD: 24 * 3_600_000,
    });
  });

  it('reads the withdrawal address hold as a duration, and refuses what is not one', () => {
    const hold = (v: string) =>
      loadInvoicingConfig({ ...BASE, WITHDRAWAL_ADDRESS_HOLD: v }).WITHDRAWAL_ADDRESS_HOLD;
    expect(hold('0')).to.equal(0);
    expect(hold('2s')).to.equal(2000);
    expect(hold('90m')).to.equal(90 * 60_000);
    expect(hold(' 48h ')).to.equal(48 * 3_600_000);
    expect(hold('7d')).to.equal(7 * 86_400_000);
    expect(hold('250ms')).to.equal(250);
    for (const bad of ['24', '-1h', '1.5h', 'soon', '31d'])
      expect(() => hold(bad), bad).to.throw(ConfigError, /WITHDRAWAL_ADDRESS_HOLD/);
  });

  it('reads the seller', () => {
    const c = loadInvoicingConfig({
      ...BASE,
      SELLER_NAME: 'Pay SRL',
      SELLER_STREET: 'Via Roma 1 | Scala B',
      SELLER_POSTCODE: '00100',
      SELLER_CITY: 'Roma',
      SELLER_COUNTRY: 'it',
      SELLER_VAT_NUMBER: 'IT12345678901',
    });
    expect(sellerOf(c)).to.deep.equal({
      name: 'Pay SRL',
      addressLines: ['Via Roma 1', 'Scala B', '00100 Roma'],
      country: 'IT',
      vatNumber: 'IT12345678901',
      taxNumber: null,
      email: null,
    });
    // Outside production an unset seller says so on the invoice, and VAT is decided as Germany's.
    expect(sellerOf(loadInvoicingConfig(BASE))).to.deep.include({
      name: 'Seller not configured (SELLER_NAME)',
      addressLines: [],
      country: 'DE',
    });
  });

  it('refuses to start in production without the seller an invoice must name, naming each variable', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadInvoicingConfig({ ...BASE, NODE_ENV: 'production', ...env });
        return [];
      } catch (err) {
        expect(err).to.be.instanceOf(ConfigError);
        return (err as ConfigError).problems;
      }
    };
    expect(problems({})).to.deep.equal([
      'SELLER_NAME: is required in production (printed on every invoice)',
      'SELLER_STREET: is required in production (printed on every invoice)',
      'SELLER_POSTCODE: is required in production (printed on every invoice)',
      'SELLER_CITY: is required in production (printed on every invoice)',
      'SELLER_COUNTRY: is required in production (printed on every invoice)',
      'SELLER_VAT_NUMBER: is required in production, or SELLER_TAX_NUMBER (printed on every invoice)',
    ]);
    const complete = {
      SELLER_NAME: 'Stablepay Demo GmbH',
      SELLER_STREET: 'Musterstraße 12',
      SELLER_POSTCODE: '10115',
      SELLER_CITY: 'Berlin',
      SELLER_COUNTRY: 'DE',
      SELLER_VAT_NUMBER: 'DE123456789',
    };
    expect(problems(complete)).to.deep.equal([]);
    expect(problems({ ...complete, SELLER_VAT_NUMBER: '', SELLER_TAX_NUMBER: '12/345/67890' })).to.deep.equal(
      [],
    );
    // A blank value is no value.
    expect(problems({ ...complete, SELLER_CITY: '  ' })).to.deep.equal([
      'SELLER_CITY: is required in production (printed on every invoice)',
    ]);
  });

  it('refuses, naming the variable, what cannot work', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadInvoicingConfig({ ...BASE, ...env });
      } catch (err) {
        expect(err).to.be.instanceOf(ConfigError);
        return (err as ConfigError).problems.join('\n');
      }
      return '';
    };
    expect(problems({ TREASURY_ADDRESS: '' })).to.match(/^TREASURY_ADDRESS/);
    expect(problems({ TREASURY_ADDRESS: '0x1234' })).to.match(/TREASURY_ADDRESS: Invalid EVM address/);
    expect(problems({ WITHDRAWAL_FEE_RATE: '1.5' })).to.match(/WITHDRAWAL_FEE_RATE/);
    expect(problems({ WITHDRAWAL_FEE_RATE: '0.0000001' })).to.match(/WITHDRAWAL_FEE_RATE/);
    expect(problems({ WITHDRAWAL_FEE_MIN: '0' })).to.match(/WITHDRAWAL_FEE_MIN/);
    expect(problems({ SELLER_COUNTRY: 'US' })).to.match(/SELLER_COUNTRY: must be an EU member state/);
    expect(problems({ SELLER_COUNTRY: 'FR', SELLER_VAT_NUMBER: 'DE123456789' })).to.match(
      /SELLER_VAT_NUMBER: A VAT number of FR starts with FR/,
    );
    expect(problems({ SELLER_ADDRESS: 'Hauptstr. 1|10115 Berlin' })).to.match(
      /SELLER_ADDRESS: replaced by SELLER_STREET, SELLER_POSTCODE and SELLER_CITY/,
    );
    expect(problems({ INVOICE_PREFIX: 'inv' })).to.match(/INVOICE_PREFIX/);
    expect(problems({ INVOICE_STORAGE: 's3' })).to.match(/S3_BUCKET: is required/);
    expect(problems({ INVOICE_STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).to.match(
      /S3_SECRET_ACCESS_KEY/,
    );
  });
});
