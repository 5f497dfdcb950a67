import { randomBytes } from 'node:crypto';
import { TypedDataEncoder, Wallet } from 'ethers';
import { PaymentAmountInput, decimalToBaseUnits } from '@stablepay/contracts';
import { CHECKOUT_PROOF_DOMAIN, CHECKOUT_PROOF_TYPES } from '@stablepay/payments';

export { waitFor } from '@stablepay/platform/testing';

export const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;

export interface Api {
  call(
    method: string,
    path: string,
    opts?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
}

export const api = (baseUrl: string): Api => ({
  async call(method, path, opts = {}) {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body, headers: res.headers };
  },
});

export const paymentBody = (merchantId: string, extra: Record<string, unknown> = {}) => ({
  merchantId,
  txHash: hex(32),
  amount: 25,
  expectedAmount: 25,
  token: 'USDC',
  chainId: 8453,
  fromAddress: hex(20),
  toAddress: hex(20),
  customerEmail: 'customer@example.com',
  reference: 'order-1001',
  ...extra,
});

/**
 * The payer's EIP-712 proof for a session link, as the checkout page obtains it: signed by
 * `privateKey` (a random wallet when absent, which then becomes `fromAddress`).
 */
export const proveSession = (body: Record<string, any>, privateKey?: string): Record<string, any> => {
  if (typeof body.sessionId !== 'string') return body;
  const wallet = privateKey ? new Wallet(privateKey) : Wallet.createRandom();
  const message = {
    sessionId: body.sessionId,
    merchantId: body.merchantId,
    payer: wallet.address,
    recipient: body.toAddress,
    token: body.token,
    amount: decimalToBaseUnits(PaymentAmountInput.parse(body.amount)),
    sourceChainId: body.chainId,
  };
  const digest = TypedDataEncoder.hash(
    { ...CHECKOUT_PROOF_DOMAIN, chainId: body.chainId },
    CHECKOUT_PROOF_TYPES,
    message,
  );
  return { ...body, fromAddress: wallet.address, sessionProof: wallet.signingKey.sign(digest).serialized };
};
