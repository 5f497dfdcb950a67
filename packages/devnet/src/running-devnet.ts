import { parseChainRegistry, type BlockchainName, type ChainRegistry } from '@stablepay/contracts';
import { getAddress } from 'ethers';
import type { DevnetAccount } from './accounts.js';
import { devnetCctp } from './cctp/devnet-cctp.js';
import type { ChainNode } from './chain-node.js';
import type { Devnet, DevnetChain, FundAmounts } from './types.js';

export interface DevnetParts {
  chains: DevnetChain[];
  customers: DevnetAccount[];
  deployer: DevnetAccount;
  relayers: Partial<Record<BlockchainName, DevnetAccount>>;
  nodes: Map<BlockchainName, ChainNode>;
  blockTime: number | undefined;
}

/** The handle on started chains; every call on a chain waits for the one before it (`exclusive`). */
export const createDevnet = (parts: DevnetParts): Devnet => {
  const { chains, nodes } = parts;
  let stopping: Promise<void> | undefined;

  const chain = (name: BlockchainName): DevnetChain => {
    const found = chains.find((each) => each.name === name);
    if (!found) throw new Error(`No devnet chain ${name} (running: ${chains.map((c) => c.name).join(', ')})`);
    return found;
  };
  const node = (name: BlockchainName): ChainNode => {
    if (stopping) throw new Error('The devnet is stopped');
    chain(name);
    return nodes.get(name) as ChainNode;
  };

  const fund = async (chainName: BlockchainName, address: string, amounts: FundAmounts): Promise<void> => {
    const target = node(chainName);
    const tokens = chain(chainName).tokens;
    const recipient = getAddress(address);
    for (const [key, amount] of Object.entries(amounts)) {
      if (typeof amount !== 'bigint' || amount < 0n)
        throw new RangeError(`fund: ${key} must be a non-negative bigint`);
    }
    if (amounts.EURC && !tokens.EURC) throw new Error(`No EURC on devnet chain ${chainName}`);
    await target.exclusive(async () => {
      if (amounts.native) await target.addNative(recipient, amounts.native);
      const mints = [];
      if (amounts.USDC) mints.push(target.mintRequest(tokens.USDC, recipient, amounts.USDC));
      if (amounts.EURC && tokens.EURC) mints.push(target.mintRequest(tokens.EURC, recipient, amounts.EURC));
      await target.sendFromDeployer(mints);
    });
  };

  const registry = (): ChainRegistry =>
    parseChainRegistry({
      network: 'devnet',
      chains: chains.map((each) => ({
        name: each.name,
        chainId: each.chainId,
        cctpDomain: each.cctpDomain,
        rpcUrls: [each.rpcUrl],
        confirmations: 1,
        ...(parts.blockTime ? { blockTimeMs: parts.blockTime * 1_000 } : {}),
        tokens: { ...each.tokens },
        cctp: { tokenMessenger: each.cctp.tokenMessenger, messageTransmitter: each.cctp.messageTransmitter },
      })),
    });

  return {
    chains,
    customers: parts.customers,
    deployer: parts.deployer,
    relayers: parts.relayers,
    cctp: devnetCctp(),
    registry,
    chain,
    fund,
    mine: (chainName, blocks = 1) => {
      if (!Number.isInteger(blocks) || blocks < 1) throw new RangeError('blocks must be a positive integer');
      const target = node(chainName);
      return target.exclusive(() => target.mine(blocks));
    },
    snapshot: (chainName) => {
      const target = node(chainName);
      return target.exclusive(() => target.snapshot());
    },
    revert: (chainName, snapshotId) => {
      const target = node(chainName);
      return target.exclusive(() => target.revert(snapshotId));
    },
    stop: () => {
      stopping ??= Promise.all([...nodes.values()].map((each) => each.exclusive(() => each.stop()))).then(
        () => undefined,
      );
      return stopping;
    },
  };
};
