import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  DEVNET_BASE_PORT,
  devnetRegistry,
  mainnetRegistry,
  parseChainRegistry,
  type BlockchainName,
  type Currency,
} from '@stablepay/contracts';
import {
  MAX_CUSTOMERS,
  customerAccount,
  deployerAccount,
  relayerAccount,
  type DevnetAccount,
} from './accounts.js';
import { AnvilStartError, freePort, startAnvil, type AnvilProcess } from './anvil.js';
import { loadArtifact } from './artifacts.js';
import { deployCctpOnChains } from './cctp/deploy.js';
import { ChainNode } from './chain-node.js';
import {
  emptyManifest,
  readManifest,
  writeManifest,
  type ChainRecord,
  type DevnetManifest,
} from './manifest.js';
import { createDevnet } from './running-devnet.js';
import { seedChain } from './seed.js';
import type { Devnet, DevnetChain, DevnetChainSpec, DevnetLogger, StartDevnetOptions } from './types.js';

const defaultTokens = (name: BlockchainName): Currency[] =>
  mainnetRegistry.chains.find((chain) => chain.name === name)?.tokens.EURC ? ['USDC', 'EURC'] : ['USDC'];

/** ETH 31001, BASE 31002, MATIC 31003 with their real CCTP domains (0, 6, 7); EURC on ETH and BASE. */
export const DEFAULT_DEVNET_CHAINS: readonly DevnetChainSpec[] = devnetRegistry.chains.map(
  ({ name, chainId, cctpDomain }) => ({ name, chainId, cctpDomain, tokens: defaultTokens(name) }),
);

export const DEFAULT_CUSTOMERS = 5;
const MANIFEST_FILE = 'devnet-manifest.json';

const checkSpecs = (specs: DevnetChainSpec[]): Array<Required<DevnetChainSpec>> => {
  // The registry schema catches duplicate names, chain ids and domains.
  parseChainRegistry({
    network: 'devnet',
    chains: specs.map((s) => ({ ...s, tokens: {}, rpcUrls: ['http://127.0.0.1'], confirmations: 1 })),
  });
  return specs.map((spec) => {
    const tokens = spec.tokens ?? defaultTokens(spec.name);
    if (!tokens.includes('USDC')) throw new Error(`Devnet chain ${spec.name} must have USDC`);
    return { ...spec, tokens };
  });
};

const launch = async (
  spec: DevnetChainSpec,
  index: number,
  options: StartDevnetOptions,
  stateDir: string | undefined,
): Promise<AnvilProcess> => {
  const basePort = options.basePort ?? DEVNET_BASE_PORT;
  const common = {
    chainId: spec.chainId,
    ...(stateDir ? { statePath: join(stateDir, `${spec.name}.json`) } : {}),
    ...(options.blockTime ? { blockTime: options.blockTime } : {}),
    ...(options.stateIntervalSeconds ? { stateIntervalSeconds: options.stateIntervalSeconds } : {}),
  };
  if (basePort !== 0) return startAnvil({ ...common, port: basePort + index });
  // A free port can be taken before anvil binds it: try another one.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startAnvil({ ...common, port: await freePort() });
    } catch (error) {
      if (!(error instanceof AnvilStartError && error.addressInUse) || attempt >= 5) throw error;
    }
  }
};

const checkCustomerCount = (count: number): number => {
  if (!Number.isInteger(count) || count < 0 || count > MAX_CUSTOMERS) {
    throw new RangeError(`customers must be an integer from 0 to ${MAX_CUSTOMERS}`);
  }
  return count;
};

/** The manifest of an earlier start, refused when a chain's state belongs to another chain id. */
const readCheckedManifest = (stateDir: string | undefined, specs: Array<Required<DevnetChainSpec>>) => {
  const manifestFile = stateDir ? join(stateDir, MANIFEST_FILE) : undefined;
  const manifest = manifestFile ? readManifest(manifestFile) : emptyManifest();
  for (const spec of specs) {
    const recorded = manifest.chains[spec.name]?.chainId;
    if (recorded !== undefined && recorded !== spec.chainId) {
      throw new Error(
        `${stateDir}/${spec.name}.json holds chain ${recorded}, not ${spec.chainId}: remove it or use another stateDir`,
      );
    }
  }
  return { manifest, manifestFile };
};

/** Every chain's anvil, or none: one that fails to start stops those that did. */
const launchAll = async (
  specs: Array<Required<DevnetChainSpec>>,
  options: StartDevnetOptions,
  stateDir: string | undefined,
): Promise<AnvilProcess[]> => {
  const launched = await Promise.allSettled(
    specs.map((spec, index) => launch(spec, index, options, stateDir)),
  );
  const anvils = launched.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = launched.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.allSettled(anvils.map((anvil) => anvil.stop()));
    throw failed.reason;
  }
  return anvils;
};

interface Accounts {
  deployer: DevnetAccount;
  customers: DevnetAccount[];
  relayers: Partial<Record<BlockchainName, DevnetAccount>>;
}

/**
 * Tokens deployed and accounts funded on every chain, then CCTP deployed and linked. The nodes are
 * stopped when any of it fails.
 */
const seedAndLink = async (
  specs: Array<Required<DevnetChainSpec>>,
  nodes: Map<BlockchainName, ChainNode>,
  previous: DevnetManifest,
  accounts: Accounts,
  logger: DevnetLogger | undefined,
): Promise<ChainRecord[]> => {
  try {
    const records = await Promise.all(
      specs.map((spec) =>
        seedChain({
          node: nodes.get(spec.name) as ChainNode,
          chainName: spec.name,
          tokens: spec.tokens,
          previous: previous.chains[spec.name],
          deployer: accounts.deployer,
          customers: accounts.customers,
          relayer: accounts.relayers[spec.name] as DevnetAccount,
          ...(logger ? { logger } : {}),
        }),
      ),
    );
    // After every chain's tokens exist: each chain's CCTP contracts pair its USDC with the others'.
    const cctp = await deployCctpOnChains(
      specs.map((spec, index) => ({
        node: nodes.get(spec.name) as ChainNode,
        chainName: spec.name,
        domain: spec.cctpDomain,
        usdc: (records[index] as ChainRecord).tokens.USDC as string,
      })),
      accounts.deployer.address,
      logger,
    );
    return records.map((record, index) => ({ ...record, cctp: cctp[index] }));
  } catch (error) {
    await Promise.allSettled([...nodes.values()].map((node) => node.stop()));
    throw error;
  }
};

const devnetChain = (
  spec: Required<DevnetChainSpec>,
  record: ChainRecord,
  anvil: AnvilProcess,
): DevnetChain => ({
  name: spec.name,
  chainId: spec.chainId,
  rpcUrl: anvil.rpcUrl,
  cctpDomain: spec.cctpDomain,
  tokens: {
    USDC: record.tokens.USDC as string,
    ...(record.tokens.EURC ? { EURC: record.tokens.EURC } : {}),
  },
  cctp: record.cctp as DevnetChain['cctp'],
});

/**
 * Starts the local chains, deploys the devnet tokens and the CCTP v2 contracts where they are not
 * deployed yet, links the CCTP contracts of every chain with the others', and funds the customer and
 * relayer accounts once. With a stateDir, a second start finds the same contracts, balances and blocks.
 */
export const startDevnet = async (options: StartDevnetOptions = {}): Promise<Devnet> => {
  const startedAt = Date.now();
  const specs = checkSpecs(options.chains ? [...options.chains] : [...DEFAULT_DEVNET_CHAINS]);
  const customerCount = checkCustomerCount(options.customers ?? DEFAULT_CUSTOMERS);
  // Fail before any process starts when the contracts were never built.
  for (const contract of ['FiatToken', 'MessageTransmitterV2', 'TokenMessengerV2', 'TokenMinterV2'])
    loadArtifact(contract);

  const stateDir = options.stateDir ? resolve(options.stateDir) : undefined;
  const { manifest, manifestFile } = readCheckedManifest(stateDir, specs);
  if (stateDir) mkdirSync(stateDir, { recursive: true });

  const deployer = deployerAccount();
  const customers = Array.from({ length: customerCount }, (_, n) => customerAccount(n));
  const relayers: Partial<Record<BlockchainName, DevnetAccount>> = {};
  for (const spec of specs) relayers[spec.name] = relayerAccount(spec.name);
  const pollingIntervalMs = options.blockTime ? Math.min(1_000, options.blockTime * 250) : 50;

  const anvils = await launchAll(specs, options, stateDir);
  const nodes = new Map<BlockchainName, ChainNode>();
  specs.forEach((spec, index) => {
    nodes.set(
      spec.name,
      new ChainNode(spec.chainId, anvils[index] as AnvilProcess, deployer.address, pollingIntervalMs),
    );
  });

  const records = await seedAndLink(
    specs,
    nodes,
    manifest,
    { deployer, customers, relayers },
    options.logger,
  );
  if (manifestFile) {
    specs.forEach((spec, index) => (manifest.chains[spec.name] = records[index] as ChainRecord));
    writeManifest(manifestFile, manifest);
  }

  const chains = specs.map((spec, index) =>
    devnetChain(spec, records[index] as ChainRecord, anvils[index] as AnvilProcess),
  );
  for (const chain of chains) options.logger?.info('devnet chain ready', { ...chain });
  options.logger?.info('devnet ready', { chains: chains.length, ms: Date.now() - startedAt });

  return createDevnet({ chains, customers, deployer, relayers, nodes, blockTime: options.blockTime });
};
