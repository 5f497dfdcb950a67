import { randomBytes, randomUUID } from 'node:crypto';
import { Signature, Wallet, type TransactionResponse } from 'ethers';
import {
  EventTypes,
  baseUnitsToDecimal,
  transferAuthorizationTypedData,
  type PaymentAuthorizationReceivedData,
  type TransferAuthorization,
} from '@stablepay/contracts';
import type { ChainProbe } from './transfers.js';
import type { Harness, Merchant } from './harness.js';

export const randomNonce = (): string => `0x${randomBytes(32).toString('hex')}`;

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

export interface AuthorizationInput {
  signer: Wallet;
  /** who the authorization says pays (the signer unless a test forges it) */
  from?: string;
  to: string;
  value: bigint;
  validAfter?: number;
  validBefore?: number;
  nonce?: string;
}

/**
 * A TransferWithAuthorization signed as a customer's wallet signs it (eth_signTypedData_v4 of the
 * document the contracts build), with the token's real EIP-712 domain read from the chain.
 */
export const signAuthorization = async (
  probe: ChainProbe,
  a: AuthorizationInput,
): Promise<TransferAuthorization> => {
  const token = probe.token('USDC');
  const domain = {
    name: (await token.getFunction('name')()) as string,
    version: '2',
    chainId: probe.chain.chainId,
    verifyingContract: await token.getAddress(),
  };
  const message = {
    from: a.from ?? a.signer.address,
    to: a.to,
    value: a.value,
    validAfter: a.validAfter ?? nowSeconds() - 60,
    validBefore: a.validBefore ?? nowSeconds() + 600,
    nonce: a.nonce ?? randomNonce(),
  };
  const typed = transferAuthorizationTypedData(domain, message);
  const { EIP712Domain: _domainType, ...types } = typed.types;
  const signature = await a.signer.signTypedData(typed.domain, types, typed.message);
  return {
    ...typed.message,
    signature,
  };
};

/** Submits an authorization from `sender` (anyone may), as a front-runner would; its hash once mined. */
export const submitAuthorization = async (
  probe: ChainProbe,
  sender: Wallet,
  a: TransferAuthorization,
  opts: { mined?: boolean; maxPriorityFeePerGas?: bigint; maxFeePerGas?: bigint } = {},
): Promise<string> => {
  const { v, r, s } = Signature.from(a.signature);
  const token = probe.token('USDC', sender.connect(probe.provider));
  const { mined = true, ...fees } = opts;
  const tx = (await token.getFunction(
    'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)',
  )(a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, v, r, s, {
    gasLimit: 200_000n,
    ...fees,
  })) as TransactionResponse;
  if (mined) await tx.wait();
  return tx.hash.toLowerCase();
};

/** POST /internal/gasless/check as the payments service calls it. */
export const checkAuthorization = (
  h: Harness,
  merchant: Merchant,
  authorization: TransferAuthorization,
  overrides: Record<string, unknown> = {},
) =>
  h.post('/internal/gasless/check', {
    caller: 'service',
    body: {
      merchantId: merchant.merchantId,
      chainId: merchant.chainId,
      token: 'USDC',
      destinationChainId: null,
      authorization,
      ...overrides,
    },
  });

/** payment.authorization.received as the payments service publishes it; returns the payment id. */
export const publishAuthorization = async (
  h: Harness,
  merchant: Merchant,
  authorization: TransferAuthorization,
  opts: {
    copies?: number;
    amount?: string;
    networkFee?: string;
    /** across chains: the customer's chain (the merchant's is the destination) and Circle's fee */
    source?: { chainId: number; blockchain: Merchant['blockchain'] };
    cctpFee?: string;
    /** who bears the relay's gas (default the customer, whose authorization includes it) */
    feeBearer?: PaymentAuthorizationReceivedData['feeBearer'];
  } = {},
): Promise<string> => {
  const paymentId = randomUUID();
  const networkFee = opts.networkFee ?? '0.010000';
  const data: PaymentAuthorizationReceivedData = {
    paymentId,
    merchantId: merchant.merchantId,
    chainId: opts.source?.chainId ?? merchant.chainId,
    sourceChain: opts.source?.blockchain ?? merchant.blockchain,
    currency: 'USDC',
    amount: opts.amount ?? baseUnitsToDecimal(BigInt(authorization.value) - 10_000n),
    toAddress: merchant.address,
    isCrossChain: opts.source !== undefined,
    destinationChainId: opts.source ? merchant.chainId : null,
    authorization,
    networkFee,
    cctpFee: opts.cctpFee ?? '0.000000',
    feeBearer: opts.feeBearer ?? 'customer',
    sessionId: null,
    sessionCreatedAt: null,
    createdAt: new Date().toISOString(),
  };
  await h.publish(EventTypes.PaymentAuthorizationReceived, data, { times: opts.copies });
  return paymentId;
};

/** Events about one payment, as any consumer sees them. */
export const eventsAbout = (h: Harness, paymentId: string) =>
  h.events.messages.filter((e) => e.data?.paymentId === paymentId);

/** A new key of its own, holding nothing. */
export const freshWallet = (): Wallet => new Wallet(Wallet.createRandom().privateKey);
