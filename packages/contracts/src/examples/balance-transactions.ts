import type { ExampleTable } from './example.js';
import { ok, page, sample } from './objects.js';

const list = {
  responses: {
    200: ok(
      page('balance_transactions', {
        id: sample.id,
        type: 'payment',
        amount: sample.ledgerAmount,
        currency: 'USDC',
        blockchain: 'ETH',
        tx_hash: sample.txHash,
        block_number: 1,
        payment_id: sample.paymentId,
        refund_id: sample.refundId,
        withdrawal_id: sample.id,
        balance_after: sample.ledgerAmount,
        created_at: sample.at,
      }),
    ),
  },
};

export const balanceTransactionsExamples: ExampleTable = {
  listBalanceTransactionsApi: list,
  listBalanceTransactions: list,
};
