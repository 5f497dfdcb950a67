import type { ExampleTable } from './example.js';

export const paymentsExamples: ExampleTable = {
  getCctpFee: {
    request: {
      query: {
        destinationChain: 'BASE',
        productPrice: '25.00',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          productPrice: 25,
          amountToBurn: 25.42,
          feeGas: 0.12,
          feeCircle: 0.3,
          feeTotal: 0.42,
          totalUserPays: 25.42,
          merchantReceives: 25,
          destinationChain: 'BASE',
          validUntil: 1795746900,
          validForSeconds: 300,
          breakdown: {
            gasEstimateUSD: 0.08,
            gasWithBuffer: 0.1,
            minGasFee: 0.12,
            bufferPercent: 20,
          },
          quoteId: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          signature: '9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a',
        },
      },
    },
  },
  createPublicPayment: {
    request: {
      body: {
        merchantId: 'acme_live_0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
        txHash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
        amount: '25.00',
        expectedAmount: '25.00',
        token: 'USDC',
        chainId: 8453,
        fromAddress: '0x8ba1f109551bd432803012645ac136ddd64dba72',
        toAddress: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
        isCrossChain: false,
        customerEmail: 'buyer@example.com',
        reference: 'ORDER-1042',
        description: 'Two flat whites',
        metadata: {
          order_id: 'ord_1042',
        },
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          paymentId: '7d1e9a52-3c4b-4f8e-a6d2-0b9c8e7f6a51',
          status: 'completed',
          isCrossChain: false,
        },
      },
      201: {
        success: true,
        data: {
          paymentId: '7d1e9a52-3c4b-4f8e-a6d2-0b9c8e7f6a51',
          status: 'completed',
          isCrossChain: false,
        },
      },
    },
  },
  listPaymentsApi: {
    responses: {
      200: {
        success: true,
        data: {
          payments: [
            {
              id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              amount: '25.00',
              currency: 'USDC',
              status: 'completed',
              tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
              from_address: '0x8ba1f109551bd432803012645ac136ddd64dba72',
              to_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
              source_chain: 'ETH',
              is_cross_chain: false,
              customer_email: 'buyer@example.com',
              reference: 'ORDER-1042',
              metadata: {
                order_id: 'ord_1042',
              },
              created_at: '2026-11-27T10:15:00.000Z',
              funding: 'transfer',
            },
          ],
          total: 1,
          limit: 20,
          offset: 0,
        },
      },
    },
  },
  getPaymentApi: {
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
          currency: 'USDC',
          status: 'completed',
          tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
          from_address: '0x8ba1f109551bd432803012645ac136ddd64dba72',
          to_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          source_chain: 'ETH',
          is_cross_chain: false,
          customer_email: 'buyer@example.com',
          reference: 'ORDER-1042',
          metadata: {
            order_id: 'ord_1042',
          },
          created_at: '2026-11-27T10:15:00.000Z',
          funding: 'transfer',
          expected_amount: '25.00',
          destination_chain: null,
          bridge_provider: null,
          updated_at: '2026-11-27T10:15:00.000Z',
          failure_reason: null,
          cctp_attestation_status: null,
          merchant_transfer_tx_hash: null,
          received_amount: '25.00',
          surplus_amount: null,
          cctp_fee_amount: null,
          status_history: [
            {
              status: 'completed',
              at: '2026-11-27T10:15:00.000Z',
            },
          ],
          transfers: [
            {
              tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
              amount: '25.00',
              kind: 'payment',
              status: 'pending',
              block_number: 1,
            },
          ],
        },
      },
    },
  },
  listPayments: {
    responses: {
      200: {
        success: true,
        data: {
          payments: [
            {
              id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              amount: '25.00',
              currency: 'USDC',
              status: 'completed',
              tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
              from_address: '0x8ba1f109551bd432803012645ac136ddd64dba72',
              to_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
              source_chain: 'ETH',
              is_cross_chain: false,
              customer_email: 'buyer@example.com',
              reference: 'ORDER-1042',
              metadata: {
                order_id: 'ord_1042',
              },
              created_at: '2026-11-27T10:15:00.000Z',
              funding: 'transfer',
            },
          ],
          total: 1,
          limit: 20,
          offset: 0,
        },
      },
    },
  },
  getPaymentStatus: {
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
          status: 'completed',
          is_cross_chain: false,
          cctp_attestation_status: null,
          updated_at: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
  getPayment: {
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
          currency: 'USDC',
          status: 'completed',
          tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
          from_address: '0x8ba1f109551bd432803012645ac136ddd64dba72',
          to_address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
          source_chain: 'ETH',
          is_cross_chain: false,
          customer_email: 'buyer@example.com',
          reference: 'ORDER-1042',
          metadata: {
            order_id: 'ord_1042',
          },
          created_at: '2026-11-27T10:15:00.000Z',
          funding: 'transfer',
          expected_amount: '25.00',
          destination_chain: null,
          bridge_provider: null,
          updated_at: '2026-11-27T10:15:00.000Z',
          failure_reason: null,
          cctp_attestation_status: null,
          merchant_transfer_tx_hash: null,
          received_amount: '25.00',
          surplus_amount: null,
          cctp_fee_amount: null,
          status_history: [
            {
              status: 'completed',
              at: '2026-11-27T10:15:00.000Z',
            },
          ],
          transfers: [
            {
              tx_hash: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
              amount: '25.00',
              kind: 'payment',
              status: 'pending',
              block_number: 1,
            },
          ],
          description: null,
          checkout_session_id: 'cs_live_3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          source_chain_id: 8453,
          destination_chain_id: 8453,
          burn_tx_hash: '0x9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a',
          mint_tx_hash: '0x9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a',
          cctp_message_hash: '0x9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a9f3a',
          fee_quote: {},
          completed_at: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
};
