import type { ExampleTable } from './example.js';
import { byId, metadata, ok, page, payment, pick, sample } from './objects.js';

const create = {
  request: {
    body: {
      amount: sample.amount,
      currency: 'USDC',
      return_url: 'https://shop.example/thanks',
      cancel_url: 'https://shop.example/cart',
      metadata,
    },
  },
  responses: {
    201: ok({
      id: sample.sessionId,
      url: `https://pay.example.com/checkout?session=${sample.sessionId}`,
      expires_at: '2026-11-27T10:45:00.000Z',
    }),
  },
};

/** The payment of a session, as the merchant sees it; the payer's page adds what a top-up needs. */
const sessionPayment = pick(payment, ['id', 'status', 'tx_hash', 'amount', 'is_cross_chain']);

/** A session as the merchant reads it back. */
const session = {
  id: sample.sessionId,
  status: 'open',
  amount: sample.amount,
  currency: 'USDC',
  return_url: create.request.body.return_url,
  cancel_url: null,
  payment: sessionPayment,
  created_at: sample.at,
  expires_at: sample.at,
  metadata,
};

/** What the payer's page reads: no metadata, the top-up state, and whom it pays. */
const { metadata: _merchantOnly, ...publicSession } = session;

/** A transfer the payer reports to top up a short payment; the same answer new (201) or known (200). */
const topUp = ok({
  id: sample.id,
  payment_id: sample.paymentId,
  tx_hash: sample.txHash,
  status: 'pending',
  received_amount: sample.amount,
  rejection_reason: null,
  created_at: sample.at,
});

export const checkoutExamples: ExampleTable = {
  createCheckoutSession: create,
  listCheckoutSessions: {
    responses: {
      200: ok(page('sessions', { ...session, url: create.responses[201].data.url })),
    },
  },
  createCheckoutSessionAlias: create,
  getPublicCheckoutSession: {
    request: byId(sample.sessionId),
    responses: {
      200: ok({
        ...publicSession,
        payment: {
          ...sessionPayment,
          from_address: sample.customerWallet,
          received_amount: sample.amount,
          amount_due: sample.amount,
          top_up_until: sample.at,
          top_up_pending: false,
        },
        merchant: {
          id: sample.merchantId,
          name: sample.merchantName,
          blockchain: 'ETH',
          wallet_address: sample.merchantWallet,
          chain_id: sample.chainId,
        },
      }),
    },
  },
  getCheckoutSession: { request: byId(sample.sessionId), responses: { 200: ok(session) } },
  reportCheckoutTopUp: {
    request: { body: { txHash: sample.txHash }, ...byId(sample.sessionId) },
    responses: { 200: topUp, 201: topUp },
  },
};
