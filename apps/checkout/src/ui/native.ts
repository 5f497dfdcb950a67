/**
 * The native token that pays gas on each chain of the registry, by the registry's chain name: how
 * the page names what a customer lacks ("too little ETH on BASE"). Unknown names get a neutral word.
 */
const NATIVE: Record<string, string> = {
  ETH: 'ETH',
  BASE: 'ETH',
  ARB: 'ETH',
  OP: 'ETH',
  UNI: 'ETH',
  LINEA: 'ETH',
  WORLD: 'ETH',
  MATIC: 'POL',
  AVAX: 'AVAX',
  SONIC: 'S',
  SEI: 'SEI',
};

export const nativeSymbol = (chainName: string): string => NATIVE[chainName] ?? 'gas';
