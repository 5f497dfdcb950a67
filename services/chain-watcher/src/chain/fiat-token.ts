import {
  AbiCoder,
  Interface,
  Signature,
  getAddress,
  keccak256,
  toUtf8Bytes,
  zeroPadValue,
  type TypedDataDomain,
  type TypedDataField,
} from 'ethers';
import type { ChainRpc } from './chain-rpc.js';
import { RpcUnavailableError, revertOf, type Revert } from './rpc-errors.js';

/** The FiatToken v2.2 surface (USDC, EURC) that outgoing transfers use. */
export const fiatToken = new Interface([
  'function name() view returns (string)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function paused() view returns (bool)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function isBlacklisted(address account) view returns (bool)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)',
]);

export const AUTHORIZATION_USED_TOPIC = fiatToken.getEvent('AuthorizationUsed')!.topicHash;
export const AUTHORIZATION_CANCELED_TOPIC = fiatToken.getEvent('AuthorizationCanceled')!.topicHash;

// One definition of the signed struct for the checkout page, the payments service and this one.
export { TRANSFER_WITH_AUTHORIZATION_TYPES } from '@stablepay/contracts';

export const CANCEL_AUTHORIZATION_TYPES: Record<string, TypedDataField[]> = {
  CancelAuthorization: [
    { name: 'authorizer', type: 'address' },
    { name: 'nonce', type: 'bytes32' },
  ],
};

/**
 * The EIP-3009 nonce of a transfer, derived from the requester's idempotency key: however often the
 * command is delivered or the service restarted, every authorization signed for one key carries the
 * same nonce, and the token contract executes at most one of them.
 */
export const authorizationNonce = (idempotencyKey: string): string =>
  keccak256(toUtf8Bytes(`stablepay:transfer:${idempotencyKey}`));

export interface TransferAuthorization {
  from: string;
  to: string;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: string;
}

/** FiatToken's EIP-712 domain: its own name(), version "2", the chain and the contract. */
export const authorizationDomain = (name: string, chainId: number, token: string): TypedDataDomain => ({
  name,
  version: '2',
  chainId,
  verifyingContract: getAddress(token),
});

export const encodeTransferWithAuthorization = (auth: TransferAuthorization, signature: string): string => {
  const { v, r, s } = Signature.from(signature);
  return fiatToken.encodeFunctionData('transferWithAuthorization', [
    auth.from,
    auth.to,
    auth.value,
    auth.validAfter,
    auth.validBefore,
    auth.nonce,
    v,
    r,
    s,
  ]);
};

export const encodeCancelAuthorization = (authorizer: string, nonce: string, signature: string): string => {
  const { v, r, s } = Signature.from(signature);
  return fiatToken.encodeFunctionData('cancelAuthorization', [authorizer, nonce, v, r, s]);
};

export const tokenName = async (rpc: ChainRpc, token: string): Promise<string> => {
  const result = await rpc.ethCall(token, fiatToken.encodeFunctionData('name', []));
  return fiatToken.decodeFunctionResult('name', result)[0] as string;
};

/** True once the nonce was used by a transfer or cancelled by the authorizer. */
export const authorizationState = async (
  rpc: ChainRpc,
  token: string,
  authorizer: string,
  nonce: string,
): Promise<boolean> => {
  const result = await rpc.ethCall(
    token,
    fiatToken.encodeFunctionData('authorizationState', [authorizer, nonce]),
  );
  const [used] = AbiCoder.defaultAbiCoder().decode(['bool'], result);
  return used as boolean;
};

export interface AuthorizationEvent {
  kind: 'used' | 'canceled';
  txHash: string;
  blockNumber: number;
}

/** An authorization nonce of `authorizer` on `token`, looked for in blocks `fromBlock` to `toBlock`. */
export interface AuthorizationSearch {
  token: string;
  authorizer: string;
  nonce: string;
  fromBlock: number;
  toBlock: number;
  /** the widest block range one eth_getLogs asks for */
  maxBlocks: number;
}

/**
 * Where an authorization nonce was spent: the AuthorizationUsed (a transfer) or
 * AuthorizationCanceled log of the token, searched in `maxBlocks` windows from `fromBlock` to
 * `toBlock`. Both topics are indexed, so each window is one tight eth_getLogs.
 */
export const findAuthorizationEvent = async (
  rpc: ChainRpc,
  { token, authorizer, nonce, fromBlock, toBlock, maxBlocks }: AuthorizationSearch,
): Promise<AuthorizationEvent | undefined> => {
  const authorizerTopic = zeroPadValue(getAddress(authorizer), 32).toLowerCase();
  for (let start = Math.max(0, fromBlock); start <= toBlock; start += maxBlocks) {
    const logs = await rpc.logs({
      address: token,
      fromBlock: start,
      toBlock: Math.min(toBlock, start + maxBlocks - 1),
      topics: [[AUTHORIZATION_USED_TOPIC, AUTHORIZATION_CANCELED_TOPIC], authorizerTopic, nonce],
    });
    const log = logs.find((l) => !l.removed);
    if (log) {
      return {
        kind: log.topics[0] === AUTHORIZATION_USED_TOPIC ? 'used' : 'canceled',
        txHash: log.transactionHash.toLowerCase(),
        blockNumber: log.blockNumber,
      };
    }
  }
  return undefined;
};

/** FiatToken v2.2's revert strings that change what a transfer does (Circle's wording, exactly). */
export const FIAT_TOKEN_REVERTS = {
  paused: 'Pausable: paused',
  blacklisted: 'Blacklistable: account is blacklisted',
  insufficientBalance: 'ERC20: transfer amount exceeds balance',
  authorizationSpent: 'FiatTokenV2: authorization is used or canceled',
} as const;

/**
 * Why the token refuses a call, as far as a transfer cares: `paused` passes (the issuer paused every
 * movement for a while), `blacklisted` does not (the issuer refuses the sender or the recipient),
 * `insufficient_balance` and `authorization_spent` are facts about the wallet, `other` is anything else.
 */
export type TokenRefusal = {
  kind: 'paused' | 'blacklisted' | 'insufficient_balance' | 'authorization_spent' | 'other';
  message: string;
};

/** FiatToken's strings, and the OpenZeppelin 5 custom errors that mean the same. */
export const tokenRefusal = (revert: Revert): TokenRefusal => {
  const { message } = revert;
  if (message === FIAT_TOKEN_REVERTS.paused || message === 'EnforcedPause')
    return { kind: 'paused', message };
  if (message === FIAT_TOKEN_REVERTS.blacklisted) return { kind: 'blacklisted', message };
  if (message === FIAT_TOKEN_REVERTS.insufficientBalance || message === 'ERC20InsufficientBalance') {
    return { kind: 'insufficient_balance', message };
  }
  if (message === FIAT_TOKEN_REVERTS.authorizationSpent) return { kind: 'authorization_spent', message };
  return { kind: 'other', message };
};

/**
 * What the token says to `data` now, without sending anything: undefined when the call would pass.
 * RPC failures are thrown (RpcUnavailableError): only a revert is the token's answer.
 */
export const simulateTokenCall = async (
  rpc: ChainRpc,
  token: string,
  data: string,
): Promise<TokenRefusal | undefined> => {
  try {
    await rpc.ethCall(token, data);
    return undefined;
  } catch (err) {
    const revert = revertOf(err);
    if (!revert) throw err;
    return tokenRefusal(revert);
  }
};

/**
 * A yes/no view of the token, or undefined when the token or the node cannot say: a token without
 * the function reverts, and a node without the state of an old block answers with an error. An
 * unreachable chain is thrown, so that the caller asks again instead of deciding without it.
 */
const optionalFlag = async (
  rpc: ChainRpc,
  token: string,
  data: string,
  blockTag: number | 'latest' = 'latest',
): Promise<boolean | undefined> => {
  try {
    const result = await rpc.call('eth_call', (p) => p.call({ to: token, data, blockTag }));
    if (result === '0x') return undefined; // no code there at that block
    return AbiCoder.defaultAbiCoder().decode(['bool'], result)[0] as boolean;
  } catch (err) {
    if (revertOf(err)) return undefined;
    const answered = err instanceof RpcUnavailableError && err.failures.every((f) => f.kind === 'rpc_error');
    if (answered) return undefined;
    throw err;
  }
};

/** Whether the token was paused at the end of `blockNumber`. */
export const pausedAt = (rpc: ChainRpc, token: string, blockNumber: number): Promise<boolean | undefined> =>
  optionalFlag(rpc, token, fiatToken.encodeFunctionData('paused', []), blockNumber);

/** Which of `accounts` the token's blacklist holds now; undefined when the token has no blacklist. */
export const blacklisted = async (
  rpc: ChainRpc,
  token: string,
  accounts: string[],
): Promise<string[] | undefined> => {
  const flags = await Promise.all(
    accounts.map((a) => optionalFlag(rpc, token, fiatToken.encodeFunctionData('isBlacklisted', [a]))),
  );
  if (flags.some((f) => f === undefined)) return undefined;
  return accounts.filter((_, i) => flags[i]);
};

/** How much `spender` may move of `owner`'s tokens (the relay's burns go through the token messenger). */
export const allowanceOf = async (
  rpc: ChainRpc,
  token: string,
  owner: string,
  spender: string,
): Promise<bigint> => {
  const result = await rpc.ethCall(token, fiatToken.encodeFunctionData('allowance', [owner, spender]));
  return fiatToken.decodeFunctionResult('allowance', result)[0] as bigint;
};

export const encodeApprove = (spender: string, value: bigint): string =>
  fiatToken.encodeFunctionData('approve', [spender, value]);
