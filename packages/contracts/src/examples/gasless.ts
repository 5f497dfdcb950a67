import type { ExampleTable } from './example.js';

const quote = {
  quoteId: '6a1d3c2b-4e5f-4a7b-8c9d-0e1f2a3b4c5d',
  merchantId: 'acme_live_0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
  sessionId: null,
  chainId: 8453,
  token: 'USDC',
  destinationChainId: null,
  amount: '25.000000',
  networkFee: '0.012400',
  cctpFee: '0.000000',
  feeBearer: 'customer',
  total: '25.012400',
  authorization: {
    to: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
    value: '25012400',
    nonce: '0x8f1e4c2a7d3b6e9f0a5c8d1e4b7a2f6c9e3d0b8a5f2c7e4d1a6b9c3f8e5d2a7b',
    validBefore: '1795747800',
  },
  domain: {
    name: 'USD Coin',
    version: '2',
    chainId: 8453,
    verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  },
  expiresAt: '2026-11-27T10:20:00.000Z',
  signature: '2c7e4d1a6b9c3f8e5d2a7b8f1e4c2a7d3b6e9f0a5c8d1e4b7a2f6c9e3d0b8a5f',
} as const;

export const gaslessExamples: ExampleTable = {
  getGaslessQuote: {
    request: {
      query: {
        merchantId: quote.merchantId,
        chainId: '8453',
        token: 'USDC',
        amount: '25.00',
      },
    },
    responses: { 200: { success: true, data: quote } },
  },
  createGaslessPayment: {
    request: {
      body: {
        merchantId: quote.merchantId,
        chainId: 8453,
        token: 'USDC',
        amount: '25.00',
        authorization: {
          from: '0x8ba1f109551bd432803012645ac136ddd64dba72',
          to: quote.authorization.to,
          value: quote.authorization.value,
          validAfter: '0',
          validBefore: quote.authorization.validBefore,
          nonce: quote.authorization.nonce,
          signature: `0x${'4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd'.repeat(2)}1b`,
        },
        quote,
        customerEmail: 'buyer@example.com',
        language: 'fr',
        reference: 'ORDER-1042',
      },
    },
    responses: {
      201: {
        success: true,
        data: { paymentId: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f', status: 'pending', isCrossChain: false },
      },
      200: {
        success: true,
        data: { paymentId: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f', status: 'pending', isCrossChain: false },
      },
    },
  },
};
