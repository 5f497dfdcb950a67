import { z } from 'zod';
import { Currency } from '../shared/money.js';
import { BlockchainName, ChainId, EvmAddress } from '../shared/scalars.js';

export const ChainNetwork = z.enum(['mainnet', 'testnet', 'devnet']);
export type ChainNetwork = z.infer<typeof ChainNetwork>;

/** CCTP domain ids are Circle's own numbering (Ethereum 0, Base 6, ...), not chain ids. */
export const CctpDomain = z.number().int().nonnegative();

/** Token contracts per currency; a chain without EURC simply has no `EURC` entry. */
export const ChainTokens = z.strictObject({ USDC: EvmAddress.optional(), EURC: EvmAddress.optional() });

export const CctpContracts = z.strictObject({ tokenMessenger: EvmAddress, messageTransmitter: EvmAddress });
export type CctpContracts = z.infer<typeof CctpContracts>;

export const ChainConfig = z.strictObject({
  name: BlockchainName,
  /** What people read ("Polygon PoS"); without it, pages and e-mails show the name ("MATIC"). */
  displayName: z.string().trim().min(1).max(64).optional(),
  chainId: ChainId,
  cctpDomain: CctpDomain,
  /** Tried in order: the first is the primary, the rest are fallbacks. */
  rpcUrls: z.array(z.url({ protocol: /^(https?|wss?)$/ })).min(1),
  /**
   * Blocks a transaction needs before it counts as final for this platform, the including block being
   * the first (1 = mined). Same-chain verification and CCTP burn checks both wait for this depth.
   */
  confirmations: z.number().int().min(1),
  blockTimeMs: z.number().int().positive().optional(),
  /**
   * The block explorer, without a trailing slash: links go to `<explorerUrl>/tx/<hash>` and
   * `<explorerUrl>/address/<address>`. Without it, hashes are shown as text.
   */
  explorerUrl: z
    .url({ protocol: /^https?$/ })
    .refine((url) => !url.endsWith('/'), 'Must not end with a slash')
    .optional(),
  tokens: ChainTokens,
  cctp: CctpContracts.optional(),
});
export type ChainConfig = z.infer<typeof ChainConfig>;

const duplicates = <T>(values: T[]): T[] => values.filter((value, index) => values.indexOf(value) !== index);

export const ChainRegistry = z
  .strictObject({ network: ChainNetwork, chains: z.array(ChainConfig) })
  .superRefine((registry, ctx) => {
    const checks: Array<[string, unknown[]]> = [
      ['name', registry.chains.map((chain) => chain.name)],
      ['chainId', registry.chains.map((chain) => chain.chainId)],
      ['cctpDomain', registry.chains.map((chain) => chain.cctpDomain)],
    ];
    for (const [field, values] of checks) {
      for (const value of new Set(duplicates(values))) {
        ctx.addIssue({ code: 'custom', path: ['chains'], message: `Duplicate ${field} ${String(value)}` });
      }
    }
  });
export type ChainRegistry = z.infer<typeof ChainRegistry>;

/** Token symbol as the registry keys it (the same set as the API's currencies). */
export type TokenSymbol = Currency;
