import {
  AbiCoder,
  Contract,
  Interface,
  MaxUint256,
  ZeroAddress,
  concat,
  getAddress,
  getCreate2Address,
  id,
  keccak256,
} from 'ethers';
import { fiatTokenAbi, loadArtifact } from '../artifacts.js';
import type { ChainNode, DeployerRequest } from '../chain-node.js';
import { CREATE2_FACTORY } from '../tokens.js';
import type { DevnetLogger } from '../types.js';
import { messageTransmitterV2Abi, tokenMessengerV2Abi, tokenMinterV2Abi } from './abi.js';
import { CCTP_SIGNATURE_THRESHOLD, cctpAttesterAccounts, cctpFeeRecipientAccount } from './attesters.js';
import { EMPTY_BYTES32, addressToBytes32 } from './messages.js';

/** Message and burn-body versions, set at deployment as on Circle's v2 contracts (both 1). */
export const CCTP_MESSAGE_VERSION = 1;
export const CCTP_MESSAGE_BODY_VERSION = 1;
/** Circle's limit on a message body, in bytes. */
export const CCTP_MAX_MESSAGE_BODY_SIZE = 8192;
/** USDC per burn, in base units: the $10M Circle documents. */
export const CCTP_BURN_LIMIT_PER_MESSAGE = 10_000_000n * 10n ** 6n;

/** One chain's CCTP contracts. */
export interface CctpContracts {
  tokenMessenger: string;
  messageTransmitter: string;
  tokenMinter: string;
}

/** Explicit limits: the whole deployment goes out before any of it is mined, so nothing can be estimated. */
const GAS_LIMITS = { deploy: 5_000_000n, configure: 250_000n } as const;

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

interface Interfaces {
  minter: Interface;
  messenger: Interface;
  token: Interface;
}

let interfaces: Interfaces | undefined;
const contractInterfaces = (): Interfaces =>
  (interfaces ??= {
    minter: new Interface(tokenMinterV2Abi()),
    messenger: new Interface(tokenMessengerV2Abi()),
    token: new Interface(fiatTokenAbi()),
  });

const sameAddress = (a: string, b: string): boolean => getAddress(a) === getAddress(b);

/** Handles on one chain's contracts, and how to read or call them for the link requests. */
interface LinkContext {
  input: CctpChainInput;
  contracts: CctpContracts;
  minter: Contract;
  messenger: Contract;
  usdc: Contract;
  /** A contract deployed in this batch is known to be unconfigured: `empty`, without reading it. */
  read<T>(isFresh: boolean, empty: T, call: () => Promise<T>): Promise<T>;
  onMinter(name: string, args: unknown[]): DeployerRequest;
  onMessenger(name: string, args: unknown[]): DeployerRequest;
  onUsdc(name: string, args: unknown[]): DeployerRequest;
}

const linkContext = (input: CctpChainInput, contracts: CctpContracts): LinkContext => {
  const { provider } = input.node;
  const abis = contractInterfaces();
  const call =
    (to: string, abi: Interface) =>
    (name: string, args: unknown[]): DeployerRequest => ({
      to,
      data: abi.encodeFunctionData(name, args),
      gasLimit: GAS_LIMITS.configure,
    });
  return {
    input,
    contracts,
    minter: new Contract(contracts.tokenMinter, abis.minter, provider),
    messenger: new Contract(contracts.tokenMessenger, abis.messenger, provider),
    usdc: new Contract(input.usdc, abis.token, provider),
    read: async (isFresh, empty, read) => (isFresh ? empty : read()),
    onMinter: call(contracts.tokenMinter, abis.minter),
    onMessenger: call(contracts.tokenMessenger, abis.messenger),
    onUsdc: call(input.usdc, abis.token),
  };
};

/** A link that points elsewhere is removed (when set at all) before the expected one is added. */
const relink = (isSet: boolean, remove: DeployerRequest, add: DeployerRequest): DeployerRequest[] =>
  isSet ? [remove, add] : [add];

/** The minter knows the messenger, limits a burn, and pairs each remote domain's USDC with ours. */
const minterLinks = async (
  c: LinkContext,
  fresh: boolean,
  remotes: readonly RemoteCctpChain[],
): Promise<DeployerRequest[]> => {
  const { input, contracts, minter } = c;
  const requests: DeployerRequest[] = [];
  const messengerOfMinter = await c.read(
    fresh,
    ZeroAddress,
    () => minter.getFunction('localTokenMessenger')() as Promise<string>,
  );
  if (!sameAddress(messengerOfMinter, contracts.tokenMessenger)) {
    requests.push(
      ...relink(
        messengerOfMinter !== ZeroAddress,
        c.onMinter('removeLocalTokenMessenger', []),
        c.onMinter('addLocalTokenMessenger', [contracts.tokenMessenger]),
      ),
    );
  }
  // Only when unset: a limit someone changed on a running devnet (a test, an operator) stays.
  const burnLimit = await c.read(
    fresh,
    0n,
    () => minter.getFunction('burnLimitsPerMessage')(input.usdc) as Promise<bigint>,
  );
  if (burnLimit === 0n) {
    requests.push(c.onMinter('setMaxBurnAmountPerMessage', [input.usdc, CCTP_BURN_LIMIT_PER_MESSAGE]));
  }
  for (const remote of remotes) {
    const remoteUsdc = addressToBytes32(remote.usdc);
    const linked = await c.read(
      fresh,
      ZeroAddress,
      () => minter.getFunction('getLocalToken')(remote.domain, remoteUsdc) as Promise<string>,
    );
    if (sameAddress(linked, input.usdc)) continue;
    requests.push(
      ...relink(
        linked !== ZeroAddress,
        c.onMinter('unlinkTokenPair', [linked, remote.domain, remoteUsdc]),
        c.onMinter('linkTokenPair', [input.usdc, remote.domain, remoteUsdc]),
      ),
    );
  }
  return requests;
};

/** The messenger knows the minter and every remote domain's messenger. */
const messengerLinks = async (
  c: LinkContext,
  fresh: boolean,
  remotes: readonly RemoteCctpChain[],
): Promise<DeployerRequest[]> => {
  const { contracts, messenger } = c;
  const requests: DeployerRequest[] = [];
  const minterOfMessenger = await c.read(
    fresh,
    ZeroAddress,
    () => messenger.getFunction('localMinter')() as Promise<string>,
  );
  if (!sameAddress(minterOfMessenger, contracts.tokenMinter)) {
    requests.push(
      ...relink(
        minterOfMessenger !== ZeroAddress,
        c.onMessenger('removeLocalMinter', []),
        c.onMessenger('addLocalMinter', [contracts.tokenMinter]),
      ),
    );
  }
  for (const remote of remotes) {
    const expected = addressToBytes32(remote.tokenMessenger);
    const registered = await c.read(
      fresh,
      EMPTY_BYTES32,
      () => messenger.getFunction('remoteTokenMessengers')(remote.domain) as Promise<string>,
    );
    if (registered.toLowerCase() === expected) continue;
    requests.push(
      ...relink(
        registered !== EMPTY_BYTES32,
        c.onMessenger('removeRemoteTokenMessenger', [remote.domain]),
        c.onMessenger('addRemoteTokenMessenger', [remote.domain, expected]),
      ),
    );
  }
  return requests;
};

/**
 * The calls that link a chain's contracts as Circle's deploy scripts do, minus those already made:
 * minter ↔ messenger, a burn limit for USDC, each remote domain's USDC paired with the local USDC, each
 * remote domain's token messenger registered, and the minter made a minter of USDC. A contract deployed
 * in the same batch is known to be unconfigured and is not read. Attesters, threshold and versions are
 * the transmitter's constructor arguments.
 */
const linkRequests = async (
  input: CctpChainInput,
  contracts: CctpContracts,
  fresh: Record<keyof CctpContracts, boolean>,
  remotes: readonly RemoteCctpChain[],
): Promise<DeployerRequest[]> => {
  const c = linkContext(input, contracts);
  const requests = [
    ...(await minterLinks(c, fresh.tokenMinter, remotes)),
    ...(await messengerLinks(c, fresh.tokenMessenger, remotes)),
  ];
  const isMinter = await c.read(
    fresh.tokenMinter,
    false,
    () => c.usdc.getFunction('isMinter')(contracts.tokenMinter) as Promise<boolean>,
  );
  if (!isMinter) requests.push(c.onUsdc('configureMinter', [contracts.tokenMinter, MaxUint256]));
  return requests;
};

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
        gasLimit: GAS_LIMITS.deploy,
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
