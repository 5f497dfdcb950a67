import type { ExampleTable } from './example.js';
import { byId, ok, page, payment, pick, sample } from './objects.js';

const note = 'Customer returned the order';

/** A refund as its creation answers it; the list and the detail add to it. */
const created = {
  id: sample.id,
  payment_id: sample.paymentId,
  amount: sample.amount,
  currency: 'USDC',
  status: 'pending',
  destination_address: sample.merchantWallet,
  blockchain: 'ETH',
  reason: 'duplicate',
};

const refund = { ...created, tx_hash: sample.txHash, created_at: sample.at };

export const refundsExamples: ExampleTable = {
  createRefund: {
    request: { body: { paymentId: sample.paymentId, amount: sample.amount, reason: created.reason, note } },
    responses: { 201: ok(created) },
  },
  listRefunds: { responses: { 200: ok(page('refunds', refund)) } },
  getRefund: {
    request: byId(),
    responses: {
      200: ok({
        ...refund,
        note,
        failure_reason: null,
        completed_at: sample.at,
        payment: pick(payment, [
          'id',
          'amount',
          'currency',
          'status',
          'tx_hash',
          'from_address',
          'created_at',
        ]),
        waiting_for_funds: false,
      }),
    },
  },
  cancelRefund: { request: byId(), responses: { 200: { success: true } } },
};
