import type { ExampleTable } from './example.js';

export const withdrawalsExamples: ExampleTable = {
  createWithdrawalApi: {
    request: {
      body: {
        amount: '25.00',
        currency: 'USDC',
        blockchain: 'ETH',
        destination_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
      },
    },
    responses: {
      201: {
        success: true,
        data: {
          id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          amount: '25.00',
          fee: '25.00',
          net_amount: '25.00',
          currency: 'USDC',
          blockchain: 'ETH',
          destination_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          status: 'requested',
          tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
          fee_tx_hash: '0x9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a',
          failure_reason: null,
          invoice_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          created_at: '2026-11-27T10:15:00.000Z',
          completed_at: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
  listWithdrawalsApi: {
    responses: {
      200: {
        success: true,
        data: {
          withdrawals: [
            {
              id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              amount: '25.00',
              fee: '25.00',
              net_amount: '25.00',
              currency: 'USDC',
              blockchain: 'ETH',
              destination_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
              status: 'requested',
              tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
              fee_tx_hash: '0x9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a',
              failure_reason: null,
              invoice_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              created_at: '2026-11-27T10:15:00.000Z',
              completed_at: '2026-11-27T10:15:00.000Z',
            },
          ],
          total: 1,
          limit: 20,
          offset: 0,
        },
      },
    },
  },
  getWithdrawalApi: {
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
          amount: '25.00',
          fee: '25.00',
          net_amount: '25.00',
          currency: 'USDC',
          blockchain: 'ETH',
          destination_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          status: 'requested',
          tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
          fee_tx_hash: '0x9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a',
          failure_reason: null,
          invoice_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          created_at: '2026-11-27T10:15:00.000Z',
          completed_at: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
  createWithdrawal: {
    request: {
      body: {
        amount: '25.00',
        currency: 'USDC',
        blockchain: 'ETH',
        destination_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
      },
    },
    responses: {
      201: {
        success: true,
        data: {
          id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          amount: '25.00',
          fee: '25.00',
          net_amount: '25.00',
          currency: 'USDC',
          blockchain: 'ETH',
          destination_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          status: 'requested',
          tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
          fee_tx_hash: '0x9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a',
          failure_reason: null,
          invoice_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          created_at: '2026-11-27T10:15:00.000Z',
          completed_at: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
  listWithdrawals: {
    responses: {
      200: {
        success: true,
        data: {
          withdrawals: [
            {
              id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              amount: '25.00',
              fee: '25.00',
              net_amount: '25.00',
              currency: 'USDC',
              blockchain: 'ETH',
              destination_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
              status: 'requested',
              tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
              fee_tx_hash: '0x9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a',
              failure_reason: null,
              invoice_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              created_at: '2026-11-27T10:15:00.000Z',
              completed_at: '2026-11-27T10:15:00.000Z',
            },
          ],
          total: 1,
          limit: 20,
          offset: 0,
        },
      },
    },
  },
  getWithdrawal: {
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
          amount: '25.00',
          fee: '25.00',
          net_amount: '25.00',
          currency: 'USDC',
          blockchain: 'ETH',
          destination_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          status: 'requested',
          tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
          fee_tx_hash: '0x9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a',
          failure_reason: null,
          invoice_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          created_at: '2026-11-27T10:15:00.000Z',
          completed_at: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
  listWithdrawalAddresses: {
    responses: {
      200: {
        success: true,
        data: {
          addresses: [
            {
              id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
              label: 'Treasury (hardware wallet)',
              status: 'on_hold',
              created_at: '2026-11-27T10:15:00.000Z',
              usable_from: '2026-11-27T10:15:00.000Z',
              removed_at: '2026-11-27T10:15:00.000Z',
            },
          ],
        },
      },
    },
  },
  addWithdrawalAddress: {
    request: {
      body: {
        address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
        label: 'Treasury (hardware wallet)',
      },
    },
    responses: {
      201: {
        success: true,
        data: {
          id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          label: 'Treasury (hardware wallet)',
          status: 'on_hold',
          created_at: '2026-11-27T10:15:00.000Z',
          usable_from: '2026-11-27T10:15:00.000Z',
          removed_at: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
  removeWithdrawalAddress: {
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
          address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          label: 'Treasury (hardware wallet)',
          status: 'on_hold',
          created_at: '2026-11-27T10:15:00.000Z',
          usable_from: '2026-11-27T10:15:00.000Z',
          removed_at: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
};
