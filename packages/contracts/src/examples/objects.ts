/**
 * What the examples share: one set of ids, hashes, addresses and times, the envelope and page
 * wrappers, and the payment several resources embed. Each resource's example object is written once
 * (here or in its own file) and the list, detail, create and twin examples are built from it, so the
 * same payment reads the same in every operation that shows it.
 */

const id = '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f';

/** The values several examples show. */
export const sample = {
  /** The resource an example is about (a payment, a withdrawal, an invoice, an endpoint). */
  id,
  /** The paid payment a refund, a top-up or a balance transaction points at. */
  paymentId: '7d1e9a52-3c4b-4f8e-a6d2-0b9c8e7f6a51',
  refundId: 'c2b8f0e1-4a6d-4e3b-9f7a-1d2c3b4a5e6f',
  merchantId: 'acme_live_0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
  sessionId: `cs_live_${id}`,
  merchantName: 'Acme Coffee',
  email: 'buyer@example.com',
  password: 'correct horse battery staple',
  txHash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
  /** Any other 32-byte hash: a fee transfer, a burn, a mint, a CCTP message. */
  otherHash: '0x9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a',
  /** The merchant's wallet, where payments land and withdrawals go. */
  merchantWallet: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
  customerWallet: '0x8ba1f109551bd432803012645ac136ddd64dba72',
  chainId: 8453,
  at: '2026-11-27T10:15:00.000Z',
  amount: '25.00',
  ledgerAmount: '25.000000',
  link: 'https://shop.example/x',
  webhookUrl: 'https://shop.example/webhooks/stablepay',
  webhookSecret: 'whsec_c2VjcmV0LWtleS1ieXRlcy1mb3ItZG9jcw==',
} as const;

export const metadata = { order_id: 'ord_1042' };

/** The success envelope around an answer's data. */
export const ok = <T>(data: T) => ({ success: true, data });

/** A page of one item, as every paged list answers. */
export const page = <K extends string, T>(key: K, item: T) =>
  ({ [key]: [item], total: 1, limit: 20, offset: 0 }) as Record<K, T[]> & {
    total: number;
    limit: number;
    offset: number;
  };

/** The path parameters of a route that names one resource. */
export const byId = (id: string = sample.id) => ({ params: { id } });

/** The fields of an object a smaller view shows, in the order given. */
export const pick = <T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> =>
  Object.fromEntries(keys.map((key) => [key, from[key]])) as Pick<T, K>;

/** A payment as lists show it; its detail, the refund and the checkout session add or pick fields. */
export const payment = {
  id,
  amount: sample.amount,
  currency: 'USDC',
  status: 'completed',
  tx_hash: sample.txHash,
  from_address: sample.customerWallet,
  to_address: sample.merchantWallet,
  source_chain: 'ETH',
  is_cross_chain: false,
  customer_email: sample.email,
  reference: 'ORDER-1042',
  metadata,
  created_at: sample.at,
  funding: 'transfer',
};
