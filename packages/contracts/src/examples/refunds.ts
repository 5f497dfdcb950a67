import type { ExampleTable } from './example.js';

export const refundsExamples: ExampleTable = {
  createRefund: {
    request: {
      body: {
        paymentId: '7d1e9a52-3c4b-4f8e-a6d2-0b9c8e7f6a51',
        amount: '25.00',
        reason: 'duplicate',
        note: 'Customer returned the order',
      },
    },
    responses: {
      201: {
        success: true,
        data: {
          id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          payment_id: '7d1e9a52-3c4b-4f8e-a6d2-0b9c8e7f6a51',
          amount: '25.00',
          currency: 'USDC',
          status: 'pending',
          destination_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          blockchain: 'ETH',
          reason: 'duplicate',
        },
      },
    },
  },
  listRefunds: {
    responses: {
      200: {
        success: true,
        data: {
          refunds: [
            {
              id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              payment_id: '7d1e9a52-3c4b-4f8e-a6d2-0b9c8e7f6a51',
              amount: '25.00',
              currency: 'USDC',
              status: 'pending',
              destination_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
              blockchain: 'ETH',
              reason: 'duplicate',
              tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
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
  getRefund: {
    request: {
      params: {
        id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          payment_id: '7d1e9a52-3c4b-4f8e-a6d2-0b9c8e7f6a51',
          amount: '25.00',
          currency: 'USDC',
          status: 'pending',
          destination_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          blockchain: 'ETH',
          reason: 'duplicate',
          tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
          created_at: '2026-11-27T10:15:00.000Z',
          note: 'Customer returned the order',
          failure_reason: null,
          completed_at: '2026-11-27T10:15:00.000Z',
          payment: {
            id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
            amount: '25.00',
            currency: 'USDC',
            status: 'completed',
            tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
            from_address: '0x8ba1f109551bd432803012645ac136ddd64dba72',
            created_at: '2026-11-27T10:15:00.000Z',
          },
          waiting_for_funds: false,
        },
      },
    },
  },
  cancelRefund: {
    request: {
      params: {
        id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      200: {
        success: true,
      },
    },
  },
};
