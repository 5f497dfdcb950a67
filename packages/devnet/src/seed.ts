import type { Currency } from '@stablepay/contracts';
import type { DevnetAccount } from './accounts.js';
import { GAS_LIMITS, type ChainNode } from './chain-node.js';
import type { ChainRecord } from './manifest.js';
import { CREATE2_FACTORY, DEVNET_TOKENS, predictTokenAddress, tokenDeployData } from './tokens.js';
import type { DevnetLogger } from './types.js';

const ETHER = 10n ** 18n;
const TOKEN_UNIT = 10n ** 6n;

/** What the faucet gives each account once. */
export const FAUCET = {
  customerNative: 100n * ETHER,
  customerTokens: 10_000n * TOKEN_UNIT,
  relayerNative: 1_000n * ETHER,
} as const;

export interface SeedInput {
  node: ChainNode;
  chainName: string;
  tokens: Currency[];
  previous: ChainRecord | undefined;
  deployer: DevnetAccount;
  customers: DevnetAccount[];
  relayer: DevnetAccount;
  logger?: DevnetLogger;
}

/**
 * Makes a chain ready: the tokens exist (reused where the recorded or the predicted address has code,
 * deployed otherwise) and every customer and the relayer have received the faucet's grant once.
 * Returns the record to keep for the next start.
 */
export const seedChain = (input: SeedInput): Promise<ChainRecord> =>
  input.node.exclusive(async () => {
    const { node, deployer } = input;
    const addresses: Partial<Record<Currency, string>> = {};
    const deployments = [];
    for (const symbol of input.tokens) {
      const recorded = input.previous?.tokens[symbol];
      if (recorded && (await node.hasCode(recorded))) {
        addresses[symbol] = recorded;
        continue;
      }
      const predicted = predictTokenAddress(DEVNET_TOKENS[symbol], deployer.address, node.chainId);
      addresses[symbol] = predicted;
      if (await node.hasCode(predicted)) continue;
      deployments.push({ symbol, predicted });
    }
    await node.sendFromDeployer(
      deployments.map(({ symbol }) => ({
        to: CREATE2_FACTORY,
        data: tokenDeployData(DEVNET_TOKENS[symbol], deployer.address, node.chainId),
        gasLimit: GAS_LIMITS.deploy,
      })),
    );
    for (const { symbol, predicted } of deployments) {
      if (!(await node.hasCode(predicted)))
        throw new Error(`${symbol} deployment on ${input.chainName} left no code`);
      input.logger?.info('devnet token deployed', {
        chain: input.chainName,
        token: symbol,
        address: predicted,
      });
    }

    // A token deployed just now means a fresh chain: whatever was recorded as funded is gone.
    const funded = new Set(
      deployments.length > 0 ? [] : (input.previous?.funded ?? []).map((a) => a.toLowerCase()),
    );
    const mints = [];
    for (const customer of input.customers) {
      if (funded.has(customer.address.toLowerCase())) continue;
      await node.addNative(customer.address, FAUCET.customerNative);
      for (const symbol of input.tokens) {
        mints.push(node.mintRequest(addresses[symbol] as string, customer.address, FAUCET.customerTokens));
      }
      funded.add(customer.address.toLowerCase());
    }
    if (!funded.has(input.relayer.address.toLowerCase())) {
      await node.addNative(input.relayer.address, FAUCET.relayerNative);
      funded.add(input.relayer.address.toLowerCase());
    }
    await node.sendFromDeployer(mints);
    return { chainId: node.chainId, tokens: addresses, funded: [...funded] };
  });
