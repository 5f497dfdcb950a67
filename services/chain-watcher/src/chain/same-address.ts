/**
 * Whether two EVM addresses are the same account, whatever their letter case (checksummed or not);
 * a missing address is nobody's.
 */
export const sameAddress = (a: string | null | undefined, b: string | null | undefined): boolean =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase();
