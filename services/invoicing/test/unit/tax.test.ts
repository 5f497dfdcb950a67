import { expect } from 'chai';
import { EU_STANDARD_VAT_BP, decideTax, isEuMember, vatNumberProblem } from '../../src/index.js';

describe('VAT of an invoice (seller in Germany)', () => {
  const decide = (country: string | null, vatNumber: string | null = null) =>
    decideTax('DE', { country, vatNumber });

  it('charges domestic VAT to a customer in the seller country, with or without a VAT number', () => {
    expect(decide('DE', 'DE123456789')).to.deep.equal({
      taxCase: 'domestic',
      rateBp: 1900,
      vatCountry: 'DE',
    });
    expect(decide('DE')).to.deep.equal({ taxCase: 'domestic', rateBp: 1900, vatCountry: 'DE' });
  });

  it('charges domestic VAT while the customer country is unknown (no billing profile yet)', () => {
    expect(decide(null)).to.deep.equal({ taxCase: 'domestic', rateBp: 1900, vatCountry: 'DE' });
  });

  it('applies the reverse charge to a business in another member state', () => {
    expect(decide('FR', 'FR12345678901')).to.deep.equal({
      taxCase: 'reverse_charge',
      rateBp: 0,
      vatCountry: null,
    });
    expect(decide('GR', 'EL123456789')).to.include({ taxCase: 'reverse_charge' });
  });

  it("charges the customer country's VAT to a customer in another member state without a VAT number", () => {
    expect(decide('IT')).to.deep.equal({ taxCase: 'eu_consumer', rateBp: 2200, vatCountry: 'IT' });
    expect(decide('FI')).to.deep.equal({ taxCase: 'eu_consumer', rateBp: 2550, vatCountry: 'FI' });
  });

  it('leaves a customer outside the EU outside the scope, VAT number or not', () => {
    for (const country of ['US', 'CH', 'GB', 'NO'])
      expect(decide(country, 'X1234')).to.deep.equal({
        taxCase: 'outside_scope',
        rateBp: 0,
        vatCountry: null,
      });
  });

  it('knows the 27 member states', () => {
    expect(Object.keys(EU_STANDARD_VAT_BP)).to.have.length(27);
    expect(isEuMember('GB')).to.equal(false);
    expect(isEuMember('HR')).to.equal(true);
  });

  it('checks that an EU VAT number belongs to its country (Greece: EL)', () => {
    expect(vatNumberProblem('DE', 'DE123456789')).to.equal(undefined);
    expect(vatNumberProblem('GR', 'EL123456789')).to.equal(undefined);
    expect(vatNumberProblem('GR', 'GR123456789')).to.match(/starts with EL/);
    expect(vatNumberProblem('FR', 'DE123456789')).to.match(/starts with FR/);
    expect(vatNumberProblem('US', '12-3456789')).to.equal(undefined);
  });
});
