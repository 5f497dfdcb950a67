import { expect } from 'chai';
import { decimalToBaseUnits as units, baseUnitsToDecimal as text } from '@stablepay/contracts';
import { splitFee, toEurCents, vatIncluded } from '../../src/index.js';

const policy = { rate: '0.005000', minimum: '0.100000' };
const split = (gross: string, p = policy) => {
  const { fee, net } = splitFee(units(gross), p);
  return { fee: text(fee), net: text(net) };
};

describe('withdrawal fee', () => {
  it('is 0.5 % by default, rounded half up to a base unit, and the rest is sent', () => {
    expect(split('1000')).to.deep.equal({ fee: '5.000000', net: '995.000000' });
    expect(split('123.456789')).to.deep.equal({ fee: '0.617284', net: '122.839505' });
    // 0.0000005 rounds up, 0.0000004999 down.
    expect(split('100.0001')).to.deep.equal({ fee: '0.500001', net: '99.500099' });
    expect(split('100.000099')).to.deep.equal({ fee: '0.500000', net: '99.500099' });
  });

  it('is never below the minimum', () => {
    expect(split('19.99')).to.deep.equal({ fee: '0.100000', net: '19.890000' });
    expect(split('20')).to.deep.equal({ fee: '0.100000', net: '19.900000' });
    expect(split('0.1')).to.deep.equal({ fee: '0.100000', net: '0.000000' });
  });

  it('follows the configured rate and minimum', () => {
    expect(split('1000', { rate: '0.012500', minimum: '2.000000' })).to.deep.equal({
      fee: '12.500000',
      net: '987.500000',
    });
    expect(split('10', { rate: '0.000000', minimum: '0.010000' })).to.deep.equal({
      fee: '0.010000',
      net: '9.990000',
    });
  });
});

describe('fee in EUR and the VAT it contains', () => {
  it('converts at a 6-decimal rate to cents, rounded half up', () => {
    expect(toEurCents(units('5'), '0.920000')).to.equal(460n);
    expect(toEurCents(units('0.617284'), '0.920000')).to.equal(57n); // 0.5679
    expect(toEurCents(units('0.005'), '1.000000')).to.equal(1n); // 0.005 → 0.01
    expect(toEurCents(units('0.004999'), '1.000000')).to.equal(0n);
  });

  it('takes the VAT out of an amount that includes it', () => {
    expect(vatIncluded(460n, 1900)).to.equal(73n); // 4.60 = 3.87 + 0.73
    expect(vatIncluded(units('5'), 1900)).to.equal(798319n);
    expect(vatIncluded(units('5'), 2550)).to.equal(1015936n);
    expect(vatIncluded(units('5'), 0)).to.equal(0n);
  });
});
