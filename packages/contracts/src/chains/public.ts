import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { BlockchainName, ChainId, EvmAddress } from '../shared/scalars.js';
import { ChainNetwork } from './schema.js';

/**
 * One chain as a paying client sees it: where to read and send (public RPC endpoints, never the
 * deployment's private ones), which token contracts count as payment, and the CCTP v2 contracts a
 * cross-chain payment burns and mints through.
 */
export const PublicChain = z.object({
  name: BlockchainName,
  chainId: ChainId,
  cctpDomain: z.number().int().nonnegative(),
  /** Blocks a payment needs before the service counts it (the including block is the first). */
  confirmations: z.number().int().min(1),
  rpcUrls: z.array(z.string()),
  tokens: z.object({ USDC: EvmAddress.optional(), EURC: EvmAddress.optional() }),
  /** null on a chain without CCTP: USDC there pays same-chain only. */
  cctp: z.object({ tokenMessenger: EvmAddress, messageTransmitter: EvmAddress }).nullable(),
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
export type PublicChainsResponse = z.infer<typeof PublicChainsResponse>;
