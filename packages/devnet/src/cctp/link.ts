import { Contract, Interface, MaxUint256, ZeroAddress, getAddress } from 'ethers';
import { fiatTokenAbi } from '../artifacts.js';
import type { DeployerRequest } from '../chain-node.js';
import { tokenMessengerV2Abi, tokenMinterV2Abi } from './abi.js';
import type { CctpChainInput, CctpContracts, RemoteCctpChain } from './deploy.js';
import { EMPTY_BYTES32, addressToBytes32 } from '@stablepay/platform/cctp/message-v2';

/** USDC per burn, in base units: the $10M Circle documents. */
export const CCTP_BURN_LIMIT_PER_MESSAGE = 10_000_000n * 10n ** 6n;

/** Explicit, as for the deployment: the calls go out in the same batch as the contracts they call. */
const CONFIGURE_GAS_LIMIT = 250_000n;

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
      gasLimit: CONFIGURE_GAS_LIMIT,
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
export const linkRequests = async (
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
