import { internalRoute, routeTable } from '../catalogue/route-spec.js';
import {
  CreateGaslessPaymentBody,
  CreateGaslessPaymentResponse,
  GaslessCheckBody,
  GaslessCheckResponse,
  GaslessGasEstimateQuery,
  GaslessGasEstimateResponse,
  GaslessQuoteQuery,
  GaslessQuoteResponse,
  GaslessTokenDomainQuery,
  GaslessTokenDomainResponse,
} from './schemas.js';

const payments = { service: 'payments', tags: ['Payments'] } as const;

export const gaslessRoutes = routeTable([
  {
    ...payments,
    operationId: 'getGaslessQuote',
    method: 'get',
    path: '/payments/gasless-quote',
    auth: 'public',
    extension: true,
    summary: 'What a customer without gas signs, and every fee, before they sign',
    description:
      "Prices the relay that submits the customer's EIP-3009 authorization (and, cross-chain, Circle's fee), and names what to sign: recipient, value, nonce (tied to the checkout session or to a new payment intent) and the latest validBefore. Signed and valid until expiresAt; pass it back unchanged in quote of POST /payments/create-gasless.",
    noStore: true,
    request: { query: GaslessQuoteQuery },
    responses: { 200: { description: 'Gasless quote', schema: GaslessQuoteResponse } },
  },
  {
    ...payments,
    operationId: 'createGaslessPayment',
    method: 'post',
    path: '/payments/create-gasless',
    auth: 'public',
    extension: true,
    summary: 'Pay with a signed authorization: the relay sends the transaction',
    description:
      "The customer signs an EIP-3009 TransferWithAuthorization; it is checked on the chain (eth_call) before anything is stored or sent, then submitted once by the relay. Idempotent by chain, payer and nonce: the same authorization again answers 200 with the same payment. `language` (en, de, fr, es, it) is the checkout page's: the customer's e-mails are written in it.",
    request: { body: CreateGaslessPaymentBody },
    responses: {
      201: { description: 'Payment created', schema: CreateGaslessPaymentResponse },
      200: {
        description: 'Authorization already recorded: the existing payment',
        schema: CreateGaslessPaymentResponse,
      },
    },
  },
  {
    ...internalRoute,
    service: 'chain-watcher',
    operationId: 'checkGaslessAuthorization',
    method: 'post',
    path: '/internal/gasless/check',
    summary: 'Whether the relay could submit an authorization now, and its gas',
    noStore: true,
    request: { body: GaslessCheckBody },
    responses: { 200: { description: 'The relay can submit it', schema: GaslessCheckResponse } },
  },
  {
    ...internalRoute,
    service: 'chain-watcher',
    operationId: 'getGaslessTokenDomain',
    method: 'get',
    path: '/internal/gasless/token-domain',
    summary: "A token's EIP-712 domain on a chain, its name read from the contract",
    request: { query: GaslessTokenDomainQuery },
    responses: { 200: { description: 'The domain', schema: GaslessTokenDomainResponse } },
  },
  {
    ...internalRoute,
    service: 'chain-watcher',
    operationId: 'getGaslessGasEstimate',
    method: 'get',
    path: '/internal/gasless/gas-estimate',
    summary: "The relay's gas on the customer's chain, estimated on the chain for a quote",
    noStore: true,
    request: { query: GaslessGasEstimateQuery },
    responses: { 200: { description: 'The estimate', schema: GaslessGasEstimateResponse } },
  },
]);
