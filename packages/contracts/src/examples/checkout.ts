import type { ExampleTable } from './example.js';

export const checkoutExamples: ExampleTable = {
  createCheckoutSession: {
    request: {
      body: {
        amount: '25.00',
        currency: 'USDC',
        return_url: 'https://shop.example/thanks',
        cancel_url: 'https://shop.example/cart',
        metadata: {
          order_id: 'ord_1042',
        },
      },
    },
    responses: {
      201: {
        success: true,
        data: {
          id: 'cs_live_3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          url: 'https://pay.example.com/checkout?session=cs_live_3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          expires_at: '2026-11-27T10:45:00.000Z',
        },
      },
    },
  },
  listCheckoutSessions: {
    responses: {
      200: {
        success: true,
        data: {
          sessions: [
            {
              id: 'cs_live_3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              status: 'open',
              amount: '25.00',
              currency: 'USDC',
              return_url: 'https://shop.example/thanks',
              cancel_url: null,
              payment: {
                id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
                status: 'completed',
                tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
                amount: '25.00',
                is_cross_chain: false,
              },
              created_at: '2026-11-27T10:15:00.000Z',
              expires_at: '2026-11-27T10:15:00.000Z',
              metadata: {
                order_id: 'ord_1042',
              },
              url: 'https://shop.example/webhooks/stablepay',
            },
          ],
          total: 1,
          limit: 20,
          offset: 0,
        },
      },
    },
  },
  createCheckoutSessionAlias: {
    request: {
      body: {
        amount: '25.00',
        currency: 'USDC',
        return_url: 'https://shop.example/thanks',
        cancel_url: 'https://shop.example/cart',
        metadata: {
          order_id: 'ord_1042',
        },
      },
    },
    responses: {
      201: {
        success: true,
        data: {
          id: 'cs_live_3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          url: 'https://pay.example.com/checkout?session=cs_live_3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          expires_at: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
  getPublicCheckoutSession: {
    request: {
      params: {
        id: 'cs_live_3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          id: 'cs_live_3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          status: 'open',
          amount: '25.00',
          currency: 'USDC',
          return_url: 'https://shop.example/thanks',
          cancel_url: null,
          payment: {
            id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
            status: 'completed',
            tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
            amount: '25.00',
            is_cross_chain: false,
            from_address: '0x8ba1f109551bd432803012645ac136ddd64dba72',
            received_amount: '25.00',
            amount_due: '25.00',
            top_up_until: '2026-11-27T10:15:00.000Z',
            top_up_pending: false,
          },
          created_at: '2026-11-27T10:15:00.000Z',
          expires_at: '2026-11-27T10:15:00.000Z',
          merchant: {
            id: 'acme_live_0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
            name: 'Acme Coffee',
            blockchain: 'ETH',
            wallet_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
            chain_id: 8453,
            logo_url: '/merchants/acme_live_0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f/logo?v=9f2c4e1a7b3d5c60',
            accent_color: '#0b5fff',
          },
        },
      },
    },
  },
  getCheckoutSession: {
    request: {
      params: {
        id: 'cs_live_3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          id: 'cs_live_3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          status: 'open',
          amount: '25.00',
          currency: 'USDC',
          return_url: 'https://shop.example/thanks',
          cancel_url: null,
          payment: {
            id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
            status: 'completed',
            tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
            amount: '25.00',
            is_cross_chain: false,
          },
          created_at: '2026-11-27T10:15:00.000Z',
          expires_at: '2026-11-27T10:15:00.000Z',
          metadata: {
            order_id: 'ord_1042',
          },
        },
      },
    },
  },
  reportCheckoutTopUp: {
    request: {
      body: {
        txHash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
      },
      params: {
        id: 'cs_live_3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          payment_id: '7d1e9a52-3c4b-4f8e-a6d2-0b9c8e7f6a51',
          tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
          status: 'pending',
          received_amount: '25.00',
          rejection_reason: null,
          created_at: '2026-11-27T10:15:00.000Z',
        },
      },
      201: {
        success: true,
        data: {
          id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          payment_id: '7d1e9a52-3c4b-4f8e-a6d2-0b9c8e7f6a51',
          tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
          status: 'pending',
          received_amount: '25.00',
          rejection_reason: null,
          created_at: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
};
