import { z } from 'zod';
import type { BlockchainName } from '../shared/scalars.js';
import { ChainConfig, ChainRegistry, type TokenSymbol } from './schema.js';

export const chainByName = (registry: ChainRegistry, name: BlockchainName): ChainConfig | undefined =>
  registry.chains.find((chain) => chain.name === name);

export const chainById = (registry: ChainRegistry, chainId: number): ChainConfig | undefined =>
  registry.chains.find((chain) => chain.chainId === chainId);

export const chainByDomain = (registry: ChainRegistry, cctpDomain: number): ChainConfig | undefined =>
  registry.chains.find((chain) => chain.cctpDomain === cctpDomain);

/** The token's contract on that chain, or undefined when the chain is not served or has no such token. */
export const tokenAddress = (
  registry: ChainRegistry,
  chainName: BlockchainName,
  token: TokenSymbol,
): string | undefined => chainByName(registry, chainName)?.tokens[token];

/** The chain and token a contract address belongs to (case-insensitive), e.g. to read a Transfer log. */
export const tokenByAddress = (
  registry: ChainRegistry,
  chainId: number,
  address: string,
): TokenSymbol | undefined => {
  const tokens = chainById(registry, chainId)?.tokens ?? {};
  const wanted = address.toLowerCase();
  return (Object.keys(tokens) as TokenSymbol[]).find((symbol) => tokens[symbol]?.toLowerCase() === wanted);
};

export class ChainRegistryError extends Error {
  override readonly name = 'ChainRegistryError';
}

/**
 * Validates a registry taken from configuration: an object, or its JSON text. Throws a
 * ChainRegistryError that lists every problem, so a bad configuration stops the service at start.
 */
export const parseChainRegistry = (input: unknown): ChainRegistry => {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw new ChainRegistryError(`Chain registry is not valid JSON: ${(error as Error).message}`);
    }
  }
  const result = ChainRegistry.safeParse(value);
  if (!result.success)
    throw new ChainRegistryError(`Invalid chain registry:\n${z.prettifyError(result.error)}`);
  return result.data;
};

/** Per-chain settings that deployments replace: RPC endpoints above all, and anything else a preset guesses. */
export type ChainOverrides = Partial<Record<BlockchainName, Partial<Omit<ChainConfig, 'name'>>>>;

/**
 * A preset with configuration laid over it, validated again. `only` limits the registry to the chains
 * a deployment serves, in that order.
 */
export const withChainOverrides = (
  registry: ChainRegistry,
  overrides: ChainOverrides,
  only?: readonly BlockchainName[],
): ChainRegistry => {
  const unknown = Object.keys(overrides).filter(
    (name) => !registry.chains.some((chain) => chain.name === name),
  );
  if (unknown.length > 0)
    throw new ChainRegistryError(`Overrides name chains not in the registry: ${unknown.join(', ')}`);
  const selected = only
    ? only.map((name) => {
        const chain = chainByName(registry, name);
        if (!chain) throw new ChainRegistryError(`Chain ${name} is not in the ${registry.network} registry`);
        return chain;
      })
    : registry.chains;
  const chains = selected.map((chain) => {
    const override = overrides[chain.name] ?? {};
    return { ...chain, ...override, tokens: { ...chain.tokens, ...override.tokens } };
  });
  return parseChainRegistry({ network: registry.network, chains });
};
