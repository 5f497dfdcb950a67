import { parseChainRegistry } from './lookup.js';
import type { ChainConfig, ChainNetwork, ChainRegistry } from './schema.js';

/*
 * Confirmations follow what Circle waits for before attesting a fast CCTP transfer: 2 blocks on
 * Ethereum, 1 on the rollups (Base, Arbitrum, OP) and on Avalanche, whose blocks are final when
 * produced. Polygon PoS is not on Circle's fast list; 3 blocks is this project's choice (its blocks
 * are final within seconds since Heimdall v2). RPC URLs are public endpoints that stand in until
 * configuration replaces them: none of them is meant for production traffic.
 */

/** CCTP v2 contracts have the same address on every EVM mainnet. */
const CCTP_V2_MAINNET = {
  tokenMessenger: '0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d',
  messageTransmitter: '0x81D40F21F12A8F0E3252Bccb954D722d4c464B64',
} as const;

/** ... and the same address on every testnet. */
const CCTP_V2_TESTNET = {
  tokenMessenger: '0x8FE6B999Dc680CcFDD5Bf7EB0974218be2542DAA',
  messageTransmitter: '0xE737e5cEBEEBa77EFE34D4aa090756590b1CE275',
} as const;

const mainnetChains: ChainConfig[] = [
  {
    name: 'ETH',
    chainId: 1,
    cctpDomain: 0,
    rpcUrls: ['https://ethereum-rpc.publicnode.com'],
    confirmations: 2,
    blockTimeMs: 12_000,
    tokens: {
      USDC: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      EURC: '0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c',
    },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'BASE',
    chainId: 8453,
    cctpDomain: 6,
    rpcUrls: ['https://mainnet.base.org'],
    confirmations: 1,
    blockTimeMs: 2_000,
    tokens: {
      USDC: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      EURC: '0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42',
    },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'MATIC',
    chainId: 137,
    cctpDomain: 7,
    rpcUrls: ['https://polygon-rpc.com'],
    confirmations: 3,
    blockTimeMs: 2_000,
    tokens: { USDC: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359' },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'ARB',
    chainId: 42161,
    cctpDomain: 3,
    rpcUrls: ['https://arb1.arbitrum.io/rpc'],
    confirmations: 1,
    blockTimeMs: 250,
    tokens: { USDC: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831' },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'AVAX',
    chainId: 43114,
    cctpDomain: 1,
    rpcUrls: ['https://api.avax.network/ext/bc/C/rpc'],
    confirmations: 1,
    blockTimeMs: 2_000,
    tokens: {
      USDC: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E',
      EURC: '0xC891EB4cbdEFf6e073e859e987815Ed1505c2ACD',
    },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'OP',
    chainId: 10,
    cctpDomain: 2,
    rpcUrls: ['https://mainnet.optimism.io'],
    confirmations: 1,
    blockTimeMs: 2_000,
    tokens: { USDC: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85' },
    cctp: CCTP_V2_MAINNET,
  },
];

/**
 * Circle's test tokens on the Sepolia-family testnets (Polygon's is Amoy, Avalanche's is Fuji). EURC
 * exists on the Ethereum, Base and Avalanche testnets only, as on mainnet.
 */
const testnetChains: ChainConfig[] = [
  {
    name: 'ETH',
    chainId: 11155111,
    cctpDomain: 0,
    rpcUrls: ['https://ethereum-sepolia-rpc.publicnode.com'],
    confirmations: 2,
    blockTimeMs: 12_000,
    tokens: {
      USDC: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238',
      EURC: '0x08210F9170F89Ab7658F0B5E3fF39b0E03C594D4',
    },
    cctp: CCTP_V2_TESTNET,
  },
  {
    name: 'BASE',
    chainId: 84532,
    cctpDomain: 6,
    rpcUrls: ['https://sepolia.base.org'],
    confirmations: 1,
    blockTimeMs: 2_000,
    tokens: {
      USDC: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      EURC: '0x808456652fdb597867f38412077A9182bf77359F',
    },
    cctp: CCTP_V2_TESTNET,
  },
  {
    name: 'MATIC',
    chainId: 80002,
    cctpDomain: 7,
    rpcUrls: ['https://rpc-amoy.polygon.technology'],
    confirmations: 3,
    blockTimeMs: 2_000,
    tokens: { USDC: '0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582' },
    cctp: CCTP_V2_TESTNET,
  },
  {
    name: 'ARB',
    chainId: 421614,
    cctpDomain: 3,
    rpcUrls: ['https://sepolia-rollup.arbitrum.io/rpc'],
    confirmations: 1,
    blockTimeMs: 250,
    tokens: { USDC: '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d' },
    cctp: CCTP_V2_TESTNET,
  },
  {
    name: 'AVAX',
    chainId: 43113,
    cctpDomain: 1,
    rpcUrls: ['https://api.avax-test.network/ext/bc/C/rpc'],
    confirmations: 1,
    blockTimeMs: 2_000,
    tokens: {
      USDC: '0x5425890298aed601595a70AB815c96711a31Bc65',
      EURC: '0x5E44db7996c682E92a960b65AC713a54AD815c6B',
    },
    cctp: CCTP_V2_TESTNET,
  },
  {
    name: 'OP',
    chainId: 11155420,
    cctpDomain: 2,
    rpcUrls: ['https://sepolia.optimism.io'],
    confirmations: 1,
    blockTimeMs: 2_000,
    tokens: { USDC: '0x5fd84259d66Cd46123540766Be93DFE6D43130D7' },
    cctp: CCTP_V2_TESTNET,
  },
];

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

const preset = (network: ChainNetwork, chains: ChainConfig[]): ChainRegistry =>
  deepFreeze(parseChainRegistry({ network, chains }));

/** Read-only presets; `registryPreset()` returns a copy to build on. */
export const mainnetRegistry = preset('mainnet', mainnetChains);
export const testnetRegistry = preset('testnet', testnetChains);
export const devnetRegistry = preset('devnet', devnetChains);

const presets: Record<ChainNetwork, ChainRegistry> = {
  mainnet: mainnetRegistry,
  testnet: testnetRegistry,
  devnet: devnetRegistry,
};

/** A deep copy of the preset, safe to modify. */
export const registryPreset = (network: ChainNetwork): ChainRegistry => structuredClone(presets[network]);
