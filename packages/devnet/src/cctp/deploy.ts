import { AbiCoder, Contract, concat, getCreate2Address, id, keccak256 } from 'ethers';
import { loadArtifact } from '../artifacts.js';
import type { ChainNode, DeployerRequest } from '../chain-node.js';
import { CREATE2_FACTORY } from '../tokens.js';
import type { DevnetLogger } from '../types.js';
import { messageTransmitterV2Abi, tokenMessengerV2Abi, tokenMinterV2Abi } from './abi.js';
import { CCTP_SIGNATURE_THRESHOLD, cctpAttesterAccounts, cctpFeeRecipientAccount } from './attesters.js';
import { linkRequests } from './link.js';

/** Message and burn-body versions, set at deployment as on Circle's v2 contracts (both 1). */
export const CCTP_MESSAGE_VERSION = 1;
export const CCTP_MESSAGE_BODY_VERSION = 1;
/** Circle's limit on a message body, in bytes. */
export const CCTP_MAX_MESSAGE_BODY_SIZE = 8192;
export { CCTP_BURN_LIMIT_PER_MESSAGE } from './link.js';

/** One chain's CCTP contracts. */
export interface CctpContracts {
  tokenMessenger: string;
  messageTransmitter: string;
  tokenMinter: string;
}

/** An explicit limit: the whole deployment goes out before any of it is mined, so nothing can be estimated. */
const DEPLOY_GAS_LIMIT = 5_000_000n;

const CONTRACT_NAMES = {
  messageTransmitter: 'MessageTransmitterV2',
  tokenMinter: 'TokenMinterV2',
  tokenMessenger: 'TokenMessengerV2',
} as const satisfies Record<keyof CctpContracts, string>;

// Deployment order: the messenger's constructor takes the transmitter's address.
const DEPLOY_ORDER = ['messageTransmitter', 'tokenMinter', 'tokenMessenger'] as const;

/*
 * The chain id is part of the salt, as for the tokens: each chain has its own addresses (Circle's are the
 * same on every chain; code that relies on that would pass here by luck, so it is not copied).
 */
const salt = (contract: keyof CctpContracts, chainId: number): string =>
  id(`stablepay-devnet:cctp:${CONTRACT_NAMES[contract]}:${chainId}`);

const coder = AbiCoder.defaultAbiCoder();

const initCode = (contract: keyof CctpContracts, types: string[], values: unknown[]): string =>
  concat([loadArtifact(CONTRACT_NAMES[contract]).bytecode, coder.encode(types, values)]);

const create2Address = (contract: keyof CctpContracts, chainId: number, code: string): string =>
  getCreate2Address(CREATE2_FACTORY, salt(contract, chainId), keccak256(code));

/** Init code of each contract, with every argument fixed by the chain's domain and the owner. */
const initCodes = (domain: number, owner: string, chainId: number): Record<keyof CctpContracts, string> => {
  const messageTransmitter = initCode(
    'messageTransmitter',
    ['uint32', 'uint32', 'address', 'address[]', 'uint256', 'uint256'],
    [
      domain,
      CCTP_MESSAGE_VERSION,
      owner,
      cctpAttesterAccounts().map((attester) => attester.address),
      CCTP_SIGNATURE_THRESHOLD,
      CCTP_MAX_MESSAGE_BODY_SIZE,
    ],
  );
  const transmitterAddress = create2Address('messageTransmitter', chainId, messageTransmitter);
  return {
    messageTransmitter,
    tokenMinter: initCode('tokenMinter', ['address'], [owner]),
    tokenMessenger: initCode(
      'tokenMessenger',
      ['address', 'uint32', 'address', 'address'],
      [transmitterAddress, CCTP_MESSAGE_BODY_VERSION, owner, cctpFeeRecipientAccount().address],
    ),
  };
};

const addressesOf = (codes: Record<keyof CctpContracts, string>, chainId: number): CctpContracts => ({
  messageTransmitter: create2Address('messageTransmitter', chainId, codes.messageTransmitter),
  tokenMinter: create2Address('tokenMinter', chainId, codes.tokenMinter),
  tokenMessenger: create2Address('tokenMessenger', chainId, codes.tokenMessenger),
});

/** Where the CCTP contracts of a chain are (or will be) deployed: known before any of them exists. */
export const predictCctpContracts = (chainId: number, domain: number, owner: string): CctpContracts =>
  addressesOf(initCodes(domain, owner, chainId), chainId);

/** Another devnet chain, as this chain's contracts must know it. */
export interface RemoteCctpChain {
  domain: number;
  usdc: string;
  tokenMessenger: string;
}

export interface CctpChainInput {
  node: ChainNode;
  chainName: string;
  domain: number;
  usdc: string;
}

/**
 * Makes one chain's CCTP contracts exist and be linked: deploys whichever is missing at its CREATE2
 * address and sends only the configuration calls still missing, all in one batch from the deployer (the
 * owner of every role). A restart with state finds everything in place and sends nothing.
 */
export const deployCctp = (
  input: CctpChainInput,
  owner: string,
  remotes: readonly RemoteCctpChain[],
  logger?: DevnetLogger,
): Promise<CctpContracts> =>
  input.node.exclusive(async () => {
    const { node } = input;
    const codes = initCodes(input.domain, owner, node.chainId);
    const contracts = addressesOf(codes, node.chainId);
    const fresh = { messageTransmitter: false, tokenMinter: false, tokenMessenger: false };
    const requests: DeployerRequest[] = [];
    for (const contract of DEPLOY_ORDER) {
      if (await node.hasCode(contracts[contract])) continue;
      fresh[contract] = true;
      requests.push({
        to: CREATE2_FACTORY,
        data: concat([salt(contract, node.chainId), codes[contract]]),
        gasLimit: DEPLOY_GAS_LIMIT,
      });
    }
    requests.push(...(await linkRequests(input, contracts, fresh, remotes)));
    if (requests.length === 0) return contracts;

    await node.sendFromDeployer(requests);
    for (const contract of DEPLOY_ORDER) {
      if (fresh[contract] && !(await node.hasCode(contracts[contract])))
        throw new Error(`${CONTRACT_NAMES[contract]} deployment on ${input.chainName} left no code`);
    }
    logger?.info('devnet CCTP contracts ready', {
      chain: input.chainName,
      domain: input.domain,
      deployed: DEPLOY_ORDER.filter((contract) => fresh[contract]).map((c) => CONTRACT_NAMES[c]),
      transactions: requests.length,
      ...contracts,
    });
    return contracts;
  });

/** Deploys and links CCTP on every chain, each chain's contracts knowing every other chain's. */
export const deployCctpOnChains = (
  chains: readonly CctpChainInput[],
  owner: string,
  logger?: DevnetLogger,
): Promise<CctpContracts[]> => {
  const predicted = chains.map((chain) => predictCctpContracts(chain.node.chainId, chain.domain, owner));
  return Promise.all(
    chains.map((chain, index) => {
      const remotes = chains.flatMap((other, otherIndex) =>
        otherIndex === index
          ? []
          : [
              {
                domain: other.domain,
                usdc: other.usdc,
                tokenMessenger: (predicted[otherIndex] as CctpContracts).tokenMessenger,
              },
            ],
      );
      return deployCctp(chain, owner, remotes, logger);
    }),
  );
};

/** ethers handles on a chain's CCTP contracts, for tests and tools. */
export const cctpContractsAt = (
  contracts: CctpContracts,
  runner: ConstructorParameters<typeof Contract>[2],
) => ({
  messageTransmitter: new Contract(contracts.messageTransmitter, messageTransmitterV2Abi(), runner),
  tokenMessenger: new Contract(contracts.tokenMessenger, tokenMessengerV2Abi(), runner),
  tokenMinter: new Contract(contracts.tokenMinter, tokenMinterV2Abi(), runner),
});
