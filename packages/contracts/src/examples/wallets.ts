import type { ExampleTable } from './example.js';

export const walletsExamples: ExampleTable = {
  getWalletBalance: {
    responses: {
      200: {
        success: true,
        data: {
          wallet_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          blockchain: 'ETH',
          balances: [
            {
              token: 'USDC',
              amount: '25.00',
            },
          ],
        },
      },
    },
  },
  getReconciliationApi: {
    responses: {
      200: {
        success: true,
        data: {
          checked_at: '2026-11-27T10:15:00.000Z',
          wallets: [
            {
              blockchain: 'ETH',
              token: 'USDC',
              address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
              block_number: 1,
              ledger_balance: '25.000000',
              onchain_balance: '25.00',
              difference: '-12.500000',
              status: 'agrees',
            },
          ],
          discrepancies: 1,
        },
      },
    },
  },
  getReconciliation: {
    responses: {
      200: {
        success: true,
        data: {
          checked_at: '2026-11-27T10:15:00.000Z',
          wallets: [
            {
              blockchain: 'ETH',
              token: 'USDC',
              address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
              block_number: 1,
              ledger_balance: '25.000000',
              onchain_balance: '25.00',
              difference: '-12.500000',
              status: 'agrees',
            },
          ],
          discrepancies: 1,
        },
      },
    },
  },
};
