import { z } from 'zod';
import {
  BLOCKCHAIN_NAMES,
  ChainNetwork,
  ChainRegistryError,
  parseChainRegistry,
  registryPreset,
  withChainOverrides,
  type ChainOverrides,
  type ChainRegistry,
} from '@stablepay/contracts';
import { ConfigError } from './config.js';

const rpcUrlList = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((u) => u.trim())
      .filter((u) => u.length > 0),
  )
  .pipe(z.array(z.url({ protocol: /^(https?|wss?)$/ })).min(1));

const rpcOverrideShape = Object.fromEntries(
  BLOCKCHAIN_NAMES.map((name) => [`CHAIN_RPC_URLS_${name}`, rpcUrlList.optional()]),
) as Record<`CHAIN_RPC_URLS_${(typeof BLOCKCHAIN_NAMES)[number]}`, z.ZodOptional<typeof rpcUrlList>>;

/**
 * The one way every service learns which chains the deployment serves: a preset (`CHAIN_NETWORK`),
 * or the whole registry as JSON (`CHAIN_REGISTRY`, which the devnet stack passes), plus per-chain
 * RPC URL overrides (`CHAIN_RPC_URLS_<NAME>`, comma-separated, fallbacks after the first).
 */
export const chainConfigShape = {
  CHAIN_NETWORK: ChainNetwork.default('devnet'),
  CHAIN_REGISTRY: z.string().optional(),
  ...rpcOverrideShape,
};

export type ChainEnv = { CHAIN_NETWORK: ChainNetwork; CHAIN_REGISTRY?: string } & Partial<
  Record<keyof typeof rpcOverrideShape, string[]>
>;

/** Resolves the registry; every problem becomes a ConfigError naming the variable. */
export const chainRegistryFromEnv = (env: ChainEnv): ChainRegistry => {
  let base: ChainRegistry;
  try {
    base = env.CHAIN_REGISTRY ? parseChainRegistry(env.CHAIN_REGISTRY) : registryPreset(env.CHAIN_NETWORK);
  } catch (err) {
    if (err instanceof ChainRegistryError) throw new ConfigError([`CHAIN_REGISTRY: ${err.message}`]);
    throw err;
  }
  const overrides: ChainOverrides = {};
  const problems: string[] = [];
  for (const name of BLOCKCHAIN_NAMES) {
    const urls = env[`CHAIN_RPC_URLS_${name}`];
    if (!urls) continue;
    if (base.chains.some((chain) => chain.name === name)) overrides[name] = { rpcUrls: urls };
    else problems.push(`CHAIN_RPC_URLS_${name}: chain ${name} is not in the ${base.network} chain registry`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.keys(overrides).length > 0 ? withChainOverrides(base, overrides) : base;
};
