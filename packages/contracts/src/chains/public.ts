import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { CctpContracts, ChainConfig, ChainNetwork, ChainTokens } from './schema.js';

/**
 * One chain as a paying client sees it: where to read and send (public RPC endpoints, never the
 * deployment's private ones), which token contracts count as payment, and the CCTP v2 contracts a
 * cross-chain payment burns and mints through.
 */
export const PublicChain = z.object({
  ...ChainConfig.pick({ name: true, chainId: true, cctpDomain: true, confirmations: true }).shape,
  // What the pages show and link without carrying the preset tables: the name people read ("Base"),
  // the block explorer, and the block time that, with `confirmations`, says how long a payment takes.
  ...ChainConfig.pick({ displayName: true, explorerUrl: true, blockTimeMs: true }).shape,
  rpcUrls: z.array(z.string()),
  // An answer may gain fields over time: its client reads these without refusing the rest.
  tokens: z.object(ChainTokens.shape),
  /** null on a chain without CCTP: USDC there pays same-chain only. */
  cctp: z.object(CctpContracts.shape).nullable(),
});
export type PublicChain = z.infer<typeof PublicChain>;

/** GET /chains: what the checkout page and the widget may pay with on this deployment. */
export const PublicChains = z.object({
  network: ChainNetwork,
  chains: z.array(PublicChain),
  /** Circle's attestation API (or the devnet's stand-in) for the bridge-kit flow; null when not offered. */
  attestationUrl: z.string().nullable(),
});
export type PublicChains = z.infer<typeof PublicChains>;
export const PublicChainsResponse = successEnvelope(PublicChains);
