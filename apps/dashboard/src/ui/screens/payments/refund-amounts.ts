const UNIT = 1_000_000n;

/** A decimal string of six decimals or fewer, in base units (exact: no floating point). */
export const units = (amount: string): bigint => {
  const [whole = '0', frac = ''] = amount.split('.');
  return BigInt(whole) * UNIT + BigInt(frac.padEnd(6, '0').slice(0, 6) || '0');
};

export const decimal = (u: bigint): string => `${u / UNIT}.${(u % UNIT).toString().padStart(6, '0')}`;
