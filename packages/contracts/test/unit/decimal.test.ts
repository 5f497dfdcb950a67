import { expect } from 'chai';
import { baseUnitsToDecimal, decimalToBaseUnits, normalizeDecimal } from '../../src/index.js';

describe('decimal helpers', () => {
  it('converts decimal strings to base units exactly', () => {
    expect(decimalToBaseUnits('0')).to.equal(0n);
    expect(decimalToBaseUnits('12.5')).to.equal(12_500_000n);
    expect(decimalToBaseUnits('0.000001')).to.equal(1n);
    expect(decimalToBaseUnits('1000000')).to.equal(1_000_000_000_000n);
    expect(decimalToBaseUnits('123456789012345678901234567890.123456')).to.equal(
      123456789012345678901234567890123456n,
    );
    expect(decimalToBaseUnits('-1.5')).to.equal(-1_500_000n);
    expect(decimalToBaseUnits('1.5', 2)).to.equal(150n);
    expect(decimalToBaseUnits('7', 0)).to.equal(7n);
  });

  it('rejects more fraction digits than the token has', () => {
    expect(() => decimalToBaseUnits('0.0000001')).to.throw(RangeError);
    expect(() => decimalToBaseUnits('1.123', 2)).to.throw(RangeError);
  });

  it('throws on garbage', () => {
    for (const bad of ['', ' ', 'abc', '1e6', '1,5', '.5', '5.', '+1', ' 1', '1 ', '0x10', '1.2.3', 'NaN']) {
      expect(() => decimalToBaseUnits(bad), JSON.stringify(bad)).to.throw();
    }
    expect(() => decimalToBaseUnits(1 as unknown as string)).to.throw(TypeError);
  });

  it('formats base units with exactly 6 fraction digits', () => {
    expect(baseUnitsToDecimal(12_500_000n)).to.equal('12.500000');
    expect(baseUnitsToDecimal(0n)).to.equal('0.000000');
    expect(baseUnitsToDecimal(1n)).to.equal('0.000001');
    expect(baseUnitsToDecimal(-1n)).to.equal('-0.000001');
    expect(baseUnitsToDecimal(150n, 2)).to.equal('1.50');
    expect(baseUnitsToDecimal(7n, 0)).to.equal('7');
  });

  it('round-trips exactly', () => {
    for (const text of ['0.000000', '0.000001', '0.100000', '12.345678', '999999.999999', '1000000.000000']) {
      expect(baseUnitsToDecimal(decimalToBaseUnits(text))).to.equal(text);
    }
    for (let units = 0n; units < 2_000_000n; units += 99_991n) {
      expect(decimalToBaseUnits(baseUnitsToDecimal(units))).to.equal(units);
    }
    const big = 2n ** 100n + 12345n;
    expect(decimalToBaseUnits(baseUnitsToDecimal(big))).to.equal(big);
  });

  it('sums like decimals, not like floats', () => {
    const sum = decimalToBaseUnits('0.1') + decimalToBaseUnits('0.2');
    expect(baseUnitsToDecimal(sum)).to.equal('0.300000');
    expect(sum).to.equal(decimalToBaseUnits('0.3'));
    expect(normalizeDecimal('0.30')).to.equal('0.300000');
  });
});
