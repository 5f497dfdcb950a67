import type { ExampleTable } from './example.js';

export const balanceTransactionsExamples: ExampleTable = {
  listBalanceTransactionsApi: {
    responses: {
      200: {
        success: true,
        data: {
          balance_transactions: [
            {
              id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              type: 'payment',
              amount: '25.000000',
              currency: 'USDC',
              blockchain: 'ETH',
              tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
              block_number: 1,
              payment_id: '7d1e9a52-3c4b-4f8e-a6d2-0b9c8e7f6a51',
              refund_id: 'c2b8f0e1-4a6d-4e3b-9f7a-1d2c3b4a5e6f',
              withdrawal_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              balance_after: '25.000000',
              created_at: '2026-11-27T10:15:00.000Z',
            },
          ],
          total: 1,
          limit: 20,
          offset: 0,
        },
      },
    },
  },
  listBalanceTransactions: {
    responses: {
      200: {
        success: true,
        data: {
          balance_transactions: [
            {
              id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              type: 'payment',
              amount: '25.000000',
              currency: 'USDC',
              blockchain: 'ETH',
              tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
              block_number: 1,
              payment_id: '7d1e9a52-3c4b-4f8e-a6d2-0b9c8e7f6a51',
              refund_id: 'c2b8f0e1-4a6d-4e3b-9f7a-1d2c3b4a5e6f',
              withdrawal_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              balance_after: '25.000000',
              created_at: '2026-11-27T10:15:00.000Z',
            },
          ],
          total: 1,
          limit: 20,
          offset: 0,
        },
      },
    },
  },
};
