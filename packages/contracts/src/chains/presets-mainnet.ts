import type { ChainConfig } from './schema.js';

/*
 * The public mainnets where Circle issues USDC and runs CCTP v2, as Circle publishes them (the
 * tables are linked from docs/chains.md). Type imports only, so that a browser bundle can read the
 * names and explorers without the schema code; presets.ts validates these into `mainnetRegistry`.
 *
 * Confirmations follow what Circle waits for before attesting a fast CCTP transfer: 2 blocks on
 * Ethereum, 1 on the rollups. Chains where Circle offers no fast transfer, because its standard
 * attestation is already quick, take Circle's standard depth: 1 block on Avalanche, Sonic and Sei,
 * whose blocks are final when produced; 3 on Polygon PoS, the top of Circle's "2-3 blocks" (final
 * within seconds since Heimdall v2). Block times are approximate and only pace polling. RPC URLs
 * are public endpoints that stand in until configuration replaces them: none of them is meant for
 * production traffic.
 */

/** CCTP v2 contracts have the same address on every EVM mainnet. */
export const CCTP_V2_MAINNET = {
  tokenMessenger: '0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d',
  messageTransmitter: '0x81D40F21F12A8F0E3252Bccb954D722d4c464B64',
} as const;

export const MAINNET_CHAINS: readonly ChainConfig[] = [
  {
    name: 'ETH',
    displayName: 'Ethereum',
    chainId: 1,
    cctpDomain: 0,
    rpcUrls: ['https://ethereum-rpc.publicnode.com'],
    confirmations: 2,
    blockTimeMs: 12_000,
    explorerUrl: 'https://etherscan.io',
    tokens: {
      USDC: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      EURC: '0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c',
    },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'BASE',
    displayName: 'Base',
    chainId: 8453,
    cctpDomain: 6,
    rpcUrls: ['https://mainnet.base.org'],
    confirmations: 1,
    blockTimeMs: 2_000,
    explorerUrl: 'https://basescan.org',
    tokens: {
      USDC: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      EURC: '0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42',
    },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'MATIC',
    displayName: 'Polygon PoS',
    chainId: 137,
    cctpDomain: 7,
    rpcUrls: ['https://polygon-rpc.com'],
    confirmations: 3,
    blockTimeMs: 2_000,
    explorerUrl: 'https://polygonscan.com',
    tokens: { USDC: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359' },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'ARB',
    displayName: 'Arbitrum One',
    chainId: 42161,
    cctpDomain: 3,
    rpcUrls: ['https://arb1.arbitrum.io/rpc'],
    confirmations: 1,
    blockTimeMs: 250,
    explorerUrl: 'https://arbiscan.io',
    tokens: { USDC: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831' },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'AVAX',
    displayName: 'Avalanche C-Chain',
    chainId: 43114,
    cctpDomain: 1,
    rpcUrls: ['https://api.avax.network/ext/bc/C/rpc'],
    confirmations: 1,
    blockTimeMs: 2_000,
    explorerUrl: 'https://snowtrace.io',
    tokens: {
      USDC: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E',
      EURC: '0xC891EB4cbdEFf6e073e859e987815Ed1505c2ACD',
    },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'OP',
    displayName: 'OP Mainnet',
    chainId: 10,
    cctpDomain: 2,
    rpcUrls: ['https://mainnet.optimism.io'],
    confirmations: 1,
    blockTimeMs: 2_000,
    explorerUrl: 'https://optimistic.etherscan.io',
    tokens: { USDC: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85' },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'UNI',
    displayName: 'Unichain',
    chainId: 130,
    cctpDomain: 10,
    rpcUrls: ['https://mainnet.unichain.org'],
    confirmations: 1,
    blockTimeMs: 1_000,
    explorerUrl: 'https://uniscan.xyz',
    tokens: { USDC: '0x078D782b760474a361dDA0AF3839290b0EF57AD6' },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'LINEA',
    displayName: 'Linea',
    chainId: 59144,
    cctpDomain: 11,
    rpcUrls: ['https://rpc.linea.build'],
    confirmations: 1,
    blockTimeMs: 2_000,
    explorerUrl: 'https://lineascan.build',
    tokens: { USDC: '0x176211869cA2b568f2A7D4EE941E073a821EE1ff' },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'SONIC',
    displayName: 'Sonic',
    chainId: 146,
    cctpDomain: 13,
    rpcUrls: ['https://rpc.soniclabs.com'],
    confirmations: 1,
    blockTimeMs: 1_000,
    explorerUrl: 'https://sonicscan.org',
    tokens: { USDC: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894' },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'WORLD',
    displayName: 'World Chain',
    chainId: 480,
    cctpDomain: 14,
    rpcUrls: ['https://worldchain-mainnet.g.alchemy.com/public'],
    confirmations: 1,
    blockTimeMs: 2_000,
    explorerUrl: 'https://worldscan.org',
    tokens: { USDC: '0x79A02482A880bCE3F13e09Da970dC34db4CD24d1' },
    cctp: CCTP_V2_MAINNET,
  },
  {
    name: 'SEI',
    displayName: 'Sei',
    chainId: 1329,
    cctpDomain: 16,
    rpcUrls: ['https://evm-rpc.sei-apis.com'],
    confirmations: 1,
    blockTimeMs: 400,
    explorerUrl: 'https://seiscan.io',
    tokens: { USDC: '0xe15fC38F6D8c56aF07bbCBe3BAf5708A2Bf42392' },
    cctp: CCTP_V2_MAINNET,
  },
];
