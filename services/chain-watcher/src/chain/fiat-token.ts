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

/** The FiatToken v2.2 surface (USDC, EURC) that outgoing transfers use. */
export const fiatToken = new Interface([
  'function name() view returns (string)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)',
]);

export const AUTHORIZATION_USED_TOPIC = fiatToken.getEvent('AuthorizationUsed')!.topicHash;
export const AUTHORIZATION_CANCELED_TOPIC = fiatToken.getEvent('AuthorizationCanceled')!.topicHash;

export const TRANSFER_WITH_AUTHORIZATION_TYPES: Record<string, TypedDataField[]> = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
};

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

/**
 * Where an authorization nonce was spent: the AuthorizationUsed (a transfer) or
 * AuthorizationCanceled log of the token, searched in `maxBlocks` windows from `fromBlock` to
 * `toBlock`. Both topics are indexed, so each window is one tight eth_getLogs.
 */
export const findAuthorizationEvent = async (
  rpc: ChainRpc,
  token: string,
  authorizer: string,
  nonce: string,
  fromBlock: number,
  toBlock: number,
  maxBlocks: number,
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
