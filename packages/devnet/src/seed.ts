import type { Currency } from '@stablepay/contracts';
import type { DevnetAccount } from './accounts.js';
import type { ChainNode, DeployerRequest } from './chain-node.js';
import type { ChainRecord } from './manifest.js';
import {
  CREATE2_FACTORY,
  DEVNET_TOKENS,
  TOKEN_GAS_LIMITS,
  faucetMinterData,
  implementationDeployData,
  predictImplementationAddress,
  predictTokenAddress,
  tokenDeployData,
} from './tokens.js';
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
 * The transactions that deploy the missing tokens, in order: the chain's FiatToken implementation
 * (once, unless it exists), then per token a FiatTokenProxy whose constructor initializes it, and
 * the deployer made the faucet's minter of it.
 */
const tokenDeployments = async (
  node: ChainNode,
  deployer: string,
  tokens: Array<{ symbol: Currency; predicted: string }>,
): Promise<DeployerRequest[]> => {
  if (tokens.length === 0) return [];
  const requests: DeployerRequest[] = [];
  if (!(await node.hasCode(predictImplementationAddress(node.chainId)))) {
    requests.push({
      to: CREATE2_FACTORY,
      data: implementationDeployData(node.chainId),
      gasLimit: TOKEN_GAS_LIMITS.implementation,
    });
  }
  for (const { symbol, predicted } of tokens) {
    requests.push(
      {
        to: CREATE2_FACTORY,
        data: tokenDeployData(DEVNET_TOKENS[symbol], deployer, node.chainId),
        gasLimit: TOKEN_GAS_LIMITS.proxy,
      },
      { to: predicted, data: faucetMinterData(deployer), gasLimit: TOKEN_GAS_LIMITS.configureMinter },
    );
  }
  return requests;
};

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
    await node.sendFromDeployer(await tokenDeployments(node, deployer.address, deployments));
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
