import { parseChainRegistry } from './lookup.js';
import { MAINNET_CHAINS } from './presets-mainnet.js';
import { TESTNET_CHAINS } from './presets-testnet.js';
import type { ChainConfig, ChainNetwork, ChainRegistry } from './schema.js';

/*
 * The chains of the public networks, with how their confirmations are chosen and where each fact
 * comes from, live in presets-mainnet.ts and presets-testnet.ts (browser-safe, for the pages'
 * names and explorer links); here they become validated, read-only registries.
 */

/** Loopback port of the first devnet chain; the others follow in order. */
export const DEVNET_BASE_PORT = 8545;

/**
 * The local devnet (anvil on loopback, see packages/devnet): chain ids in a range no public network
 * uses, so a wallet can never confuse them with the real ones, and the real CCTP domains, so that
 * messages carry the same domain numbers as on mainnet. Token and CCTP addresses are filled in by the
 * devnet when it has deployed them (`Devnet.registry()`). Blocks are mined per transaction, so one
 * confirmation (the including block) is enough.
 */
const devnetChains: ChainConfig[] = (
  [
    ['ETH', 31001, 0],
    ['BASE', 31002, 6],
    ['MATIC', 31003, 7],
  ] as const
).map(([name, chainId, cctpDomain], index) => ({
  name,
  chainId,
  cctpDomain,
  rpcUrls: [`http://127.0.0.1:${DEVNET_BASE_PORT + index}`],
  confirmations: 1,
  tokens: {},
}));

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
};

const preset = (network: ChainNetwork, chains: readonly ChainConfig[]): ChainRegistry =>
  deepFreeze(parseChainRegistry({ network, chains }));

/** Read-only presets; `registryPreset()` returns a copy to build on. */
export const mainnetRegistry = preset('mainnet', MAINNET_CHAINS);
export const testnetRegistry = preset('testnet', TESTNET_CHAINS);
export const devnetRegistry = preset('devnet', devnetChains);

const presets: Record<ChainNetwork, ChainRegistry> = {
  mainnet: mainnetRegistry,
  testnet: testnetRegistry,
  devnet: devnetRegistry,
};

/** A deep copy of the preset, safe to modify. */
export const registryPreset = (network: ChainNetwork): ChainRegistry => structuredClone(presets[network]);
