import type { ExampleTable } from './example.js';
import { byId, metadata, ok, page, payment, pick, sample } from './objects.js';

/** A payment as the API-key detail shows it: the list's fields, the amounts and its history. */
const paymentDetail = {
  ...payment,
  expected_amount: sample.amount,
  destination_chain: null,
  bridge_provider: null,
  updated_at: sample.at,
  failure_reason: null,
  cctp_attestation_status: null,
  merchant_transfer_tx_hash: null,
  received_amount: sample.amount,
  surplus_amount: null,
  cctp_fee_amount: null,
  status_history: [{ status: payment.status, at: sample.at }],
  transfers: [
    { tx_hash: sample.txHash, amount: sample.amount, kind: 'payment', status: 'pending', block_number: 1 },
  ],
};

const list = { responses: { 200: ok(page('payments', payment)) } };

/** A payment the customer's browser reports; answered the same when it is new (201) or known (200). */
const reported = ok({ paymentId: sample.paymentId, status: 'completed', isCrossChain: false });

export const paymentsExamples: ExampleTable = {
  getCctpFee: {
    request: {
      query: {
        destinationChain: 'BASE',
        productPrice: '25.00',
      },
    },
    responses: {
      200: ok({
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
        quoteId: sample.id,
        signature: sample.otherHash.slice(2),
      }),
    },
  },
  createPublicPayment: {
    request: {
      body: {
        merchantId: sample.merchantId,
        txHash: sample.txHash,
        amount: sample.amount,
        expectedAmount: sample.amount,
        token: 'USDC',
        chainId: sample.chainId,
        fromAddress: sample.customerWallet,
        toAddress: sample.merchantWallet,
        isCrossChain: false,
        customerEmail: sample.email,
        language: 'de',
        reference: payment.reference,
        description: 'Two flat whites',
        metadata,
      },
    },
    responses: { 200: reported, 201: reported },
  },
  listPaymentsApi: list,
  getPaymentApi: { request: byId(), responses: { 200: ok(paymentDetail) } },
  listPayments: list,
  getPaymentStatus: {
    request: byId(),
    responses: {
      200: ok({
        ...pick(payment, ['id', 'status', 'is_cross_chain']),
        cctp_attestation_status: null,
        updated_at: sample.at,
      }),
    },
  },
  getPayment: {
    request: byId(),
    responses: {
      200: ok({
        ...paymentDetail,
        description: null,
        checkout_session_id: sample.sessionId,
        source_chain_id: sample.chainId,
        destination_chain_id: sample.chainId,
        burn_tx_hash: sample.otherHash,
        mint_tx_hash: sample.otherHash,
        cctp_message_hash: sample.otherHash,
        fee_quote: {},
        completed_at: sample.at,
      }),
    },
  },
};
