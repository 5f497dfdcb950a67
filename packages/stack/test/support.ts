import { randomBytes } from 'node:crypto';

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
