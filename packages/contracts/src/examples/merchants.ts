import type { ExampleTable } from './example.js';

export const merchantsExamples: ExampleTable = {
  getMerchantWallet: {
    request: {
      params: {
        id: 'acme_live_0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          wallet: {
            id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
            address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
            blockchain: 'ETH',
            chainId: 8453,
          },
        },
      },
    },
  },
  getMerchantInfo: {
    request: {
      params: {
        id: 'acme_live_0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          name: 'Acme Coffee',
          blockchain: 'ETH',
          accepted_currencies: 'USDC,EURC',
        },
      },
    },
  },
};
