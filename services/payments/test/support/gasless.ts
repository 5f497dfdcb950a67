import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { keccak256, toUtf8Bytes, type BaseWallet } from 'ethers';
import {
  TRANSFER_WITH_AUTHORIZATION_TYPES,
  transferAuthorizationMessage,
  type CctpFeeInputs,
  type GaslessQuote,
  type TokenDomainView,
  type TransferAuthorization,
} from '@stablepay/contracts';
import { GaslessRelayServer } from './gasless-relay-server.js';
import {
  TEST_FEE_QUOTE_SECRET,
  actingAs,
  randomAddress,
  type Harness,
  type TestMerchant,
} from './harness.js';

/** The token on the test chains, as the chain-watcher would read its domain. */
export const BASE_USDC = randomAddress();
export const ARB_USDC = randomAddress();
export const BASE_RELAYER = randomAddress();
export const ARB_RELAYER = randomAddress();
export const domainOf = (chainId: number, verifyingContract: string): TokenDomainView => ({
  name: 'USD Coin',
  version: '2',
  chainId,
  verifyingContract,
});

/** 2 gwei with ETH at 3000 USD on both test chains. */
const prices = (blockchain: 'BASE' | 'ARB', chainId: number): CctpFeeInputs => ({
  blockchain,
  chainId,
  gasPriceWei: '2000000000',
  gasUnits: '265000',
  nativeToken: { symbol: 'ETH', decimals: 18, usdPrice: '3000', source: 'fixed' },
});

/** The stand-in chain-watcher every gasless test talks to; its check passes unless a test says otherwise. */
export const startRelay = (): Promise<GaslessRelayServer> =>
  new GaslessRelayServer()
    .domain(31337, 'USDC', domainOf(31337, BASE_USDC))
    .domain(31338, 'USDC', domainOf(31338, ARB_USDC))
    .relayer(31337, 'BASE', BASE_RELAYER)
    .relayer(31338, 'ARB', ARB_RELAYER)
    .prices(prices('BASE', 31337))
    .prices(prices('ARB', 31338))
    .passes({ relayer: BASE_RELAYER, gasUnits: '85000', gasPriceWei: '2000000000' })
    .start();

/** The nonce as the design documents it, computed independently of the service's code. */
export const documentedNonce = (merchantUuid: string, sessionOrIntent: string): string =>
  keccak256(toUtf8Bytes(`stablepay:gasless:v1:${merchantUuid}:${sessionOrIntent}`));

/** The quote's signature as the documentation defines it. */
export const documentedQuoteSignature = (q: Omit<GaslessQuote, 'signature'>): string =>
  createHmac('sha256', TEST_FEE_QUOTE_SECRET)
    .update(
      JSON.stringify([
        'stablepay.gasless-quote.v1',
        q.quoteId,
        q.merchantId,
        q.sessionId,
        q.chainId,
        q.token,
        q.destinationChainId,
        q.amount,
        q.networkFee,
        q.cctpFee,
        q.feeBearer,
        q.total,
        q.authorization.to.toLowerCase(),
        q.authorization.value,
        q.authorization.nonce.toLowerCase(),
        q.authorization.validBefore,
        q.domain.name,
        q.domain.version,
        q.domain.chainId,
        q.domain.verifyingContract.toLowerCase(),
        q.expiresAt,
      ]),
    )
    .digest('hex');

/** A quote re-signed with the service's key after a change: genuine, but with the changed values. */
export const resigned = (quote: GaslessQuote, change: Partial<GaslessQuote>): GaslessQuote => {
  const { signature: _old, ...fields } = { ...quote, ...change };
  return { ...fields, signature: documentedQuoteSignature(fields) };
};

export interface AuthorizationTerms {
  to: string;
  value: string;
  nonce: string;
  validBefore: string;
  validAfter?: string;
}

/** An authorization signed by `wallet` as a customer's wallet signs it (eth_signTypedData_v4). */
export const signAuthorization = async (
  wallet: BaseWallet,
  domain: TokenDomainView,
  t: AuthorizationTerms,
): Promise<TransferAuthorization> => {
  const values = {
    from: wallet.address,
    to: t.to,
    value: BigInt(t.value),
    validAfter: Number(t.validAfter ?? '0'),
    validBefore: Number(t.validBefore),
    nonce: t.nonce,
  };
  const signature = await wallet.signTypedData(
    domain,
    TRANSFER_WITH_AUTHORIZATION_TYPES,
    transferAuthorizationMessage(values),
  );
  return {
    from: wallet.address,
    to: t.to,
    value: t.value,
    validAfter: String(values.validAfter),
    validBefore: t.validBefore,
    nonce: t.nonce,
    signature,
  };
};

/** A checkout session of `merchant`, by its API. */
export const openSession = async (
  h: Harness,
  merchant: TestMerchant,
  body: Record<string, unknown> = { amount: '25' },
): Promise<string> => {
  const res = await h.call('POST', '/checkout/sessions', {
    ...actingAs(merchant),
    body: { currency: 'USDC', return_url: 'https://shop.example/r', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data.id as string;
};

/** GET /payments/gasless-quote with these parameters; 200 expected. */
export const getQuote = async (
  h: Harness,
  params: Record<string, string | number>,
): Promise<GaslessQuote> => {
  const res = await h.call('GET', `/payments/gasless-quote?${new URLSearchParams(stringify(params))}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.data as GaslessQuote;
};

/** A payment intent of `amount` USDC from ARB (31338) to a merchant paid on BASE (31337). */
export const crossChainQuote = (
  h: Harness,
  merchantPublicId: string,
  amount: string,
): Promise<GaslessQuote> =>
  getQuote(h, {
    merchantId: merchantPublicId,
    chainId: 31338,
    destinationChainId: 31337,
    token: 'USDC',
    amount,
  });

export const stringify = (params: Record<string, string | number>): Record<string, string> =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));
