import { expect } from 'chai';
import {
  Contract,
  Interface,
  JsonRpcProvider,
  Network,
  Signature,
  Wallet,
  hexlify,
  randomBytes,
  type TypedDataDomain,
} from 'ethers';
import { fiatTokenAbi, type DevnetAccount, type DevnetChain } from '../src/index.js';

/** A provider as a service would build one; no read cache, so balances read after a transaction are current. */
export const providerFor = (chain: DevnetChain): JsonRpcProvider =>
  new JsonRpcProvider(chain.rpcUrl, Network.from(chain.chainId), {
    staticNetwork: true,
    cacheTimeout: -1,
    pollingInterval: 50,
  });

export const walletFor = (account: DevnetAccount, provider: JsonRpcProvider): Wallet =>
  new Wallet(account.privateKey, provider);

export const tokenAt = (address: string, runner: JsonRpcProvider | Wallet): Contract =>
  new Contract(address, fiatTokenAbi(), runner);

const tokenErrors = new Interface(fiatTokenAbi());

/**
 * ethers puts a revert string in `reason`; a custom error refused while the wallet estimates gas comes
 * back undecoded (the wallet does not know the contract's ABI), so its data is decoded here.
 */
export const expectRevert = async (action: Promise<unknown>, expected: RegExp): Promise<void> => {
  try {
    await action;
  } catch (error) {
    const e = error as { reason?: string; data?: string; shortMessage?: string; message: string };
    let custom: string | undefined;
    try {
      custom = e.data ? tokenErrors.parseError(e.data)?.name : undefined;
    } catch {
      custom = undefined;
    }
    const text = [e.reason, custom, e.shortMessage, e.message].filter(Boolean).join(' | ');
    expect(text).to.match(expected);
    return;
  }
  expect.fail(`expected a revert matching ${expected}`);
};

export const tokenDomain = async (token: Contract, chainId: number): Promise<TypedDataDomain> => ({
  name: (await token.getFunction('name')()) as string,
  version: '2',
  chainId,
  verifyingContract: await token.getAddress(),
});

const AUTHORIZATION_FIELDS = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
];

export interface Authorization {
  from: string;
  to: string;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: string;
}

export const authorization = (
  from: string,
  to: string,
  value: bigint,
  overrides: Partial<Authorization> = {},
) => {
  const now = BigInt(Math.floor(Date.now() / 1000));
  return {
    from,
    to,
    value,
    validAfter: 0n,
    validBefore: now + 3_600n,
    nonce: hexlify(randomBytes(32)),
    ...overrides,
  };
};

export const signAuthorization = async (
  signer: Wallet,
  domain: TypedDataDomain,
  kind: 'TransferWithAuthorization' | 'ReceiveWithAuthorization',
  auth: Authorization,
): Promise<{ signature: string; v: number; r: string; s: string }> => {
  const signature = await signer.signTypedData(domain, { [kind]: AUTHORIZATION_FIELDS }, auth);
  const { v, r, s } = Signature.from(signature);
  return { signature, v, r, s };
};

/** Positional arguments of the (v,r,s) overloads. */
export const authorizationArgs = (auth: Authorization) =>
  [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce] as const;

export const VRS = '(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)';
export const BYTES = '(address,address,uint256,uint256,uint256,bytes32,bytes)';

export const usdc = (whole: number | bigint): bigint => BigInt(whole) * 1_000_000n;

/**
 * Orders of token and wei amounts: chai compares bigints at run time, but its types take numbers
 * only, and a bigint turned into a number loses the exactness these tests assert.
 */
export const expectAbove = (actual: bigint, floor: bigint): void => {
  expect(actual > floor, `expected ${actual} to be above ${floor}`).to.equal(true);
};

export const expectBelow = (actual: bigint, ceiling: bigint): void => {
  expect(actual < ceiling, `expected ${actual} to be below ${ceiling}`).to.equal(true);
};
