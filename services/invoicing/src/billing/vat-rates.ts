/**
 * Standard VAT rates of the EU member states, in basis points (1900 = 19 %), as in force in 2025
 * (Estonia 24 % from July 2025, Romania 21 % from August 2025, Slovakia 23 %, Finland 25.5 %).
 * A rate change is a code change here, reviewed like any other tax rule; invoices keep the rate they
 * were issued with.
 */
export const EU_STANDARD_VAT_BP: Readonly<Record<string, number>> = {
  AT: 2000,
  BE: 2100,
  BG: 2000,
  CY: 1900,
  CZ: 2100,
  DE: 1900,
  DK: 2500,
  EE: 2400,
  ES: 2100,
  FI: 2550,
  FR: 2000,
  GR: 2400,
  HR: 2500,
  HU: 2700,
  IE: 2300,
  IT: 2200,
  LT: 2100,
  LU: 1700,
  LV: 2100,
  MT: 1800,
  NL: 2100,
  PL: 2300,
  PT: 2300,
  RO: 2100,
  SE: 2500,
  SI: 2200,
  SK: 2300,
};

export const isEuMember = (country: string): boolean =>
  Object.prototype.hasOwnProperty.call(EU_STANDARD_VAT_BP, country);

/** The prefix of a member state's VAT numbers: the country code, but `EL` for Greece. */
export const vatPrefixOf = (country: string): string => (country === 'GR' ? 'EL' : country);

export const standardVatBp = (country: string): number => {
  const bp = EU_STANDARD_VAT_BP[country];
  if (bp === undefined) throw new RangeError(`${country} is not an EU member state`);
  return bp;
};
