import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { GASLESS_MAX_VALIDITY_SECONDS, GaslessQuoteResponse } from '@stablepay/contracts';
import type { GaslessRelayServer } from '../support/gasless-relay-server.js';
import {
  ARB_RELAYER,
  BASE_USDC,
  documentedNonce,
  documentedQuoteSignature,
  domainOf,
  getQuote,
  openSession,
  startRelay,
  stringify,
} from '../support/gasless.js';
import { startHarness, type Harness, type TestMerchant } from '../support/harness.js';

describe('gasless quotes (PostgreSQL + RabbitMQ + a stand-in chain-watcher)', function () {
  this.timeout(30_000);
  let h: Harness;
  let relay: GaslessRelayServer;
  let shop: TestMerchant;

  before(async () => {
    relay = await startRelay();
    h = await startHarness({ CHAIN_WATCHER_URL: relay.url });
    shop = await h.seedMerchant({ wallet: true, currencies: ['USDC', 'EURC'] });
  });
  after(async () => {
    await h?.close();
    await relay?.close();
  });

  const quoteOf = (params: Record<string, string | number>) =>
    h.call('GET', `/payments/gasless-quote?${new URLSearchParams(stringify(params))}`);

  it("prices a session's same-chain payment: the merchant wallet, the relay's gas rounded up, the derived nonce, signed", async () => {
    const sessionId = await openSession(h, shop, { amount: '25', expires_in: 1800 });
    const session = await h.db('checkout_sessions').where({ id: sessionId }).first();
    const before = Math.floor(Date.now() / 1000);
    const res = await quoteOf({ merchantId: shop.publicId, chainId: 31337, token: 'USDC', sessionId });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(GaslessQuoteResponse.safeParse(res.body).success).to.equal(true);
    const { quoteId, expiresAt, signature, ...rest } = res.body.data;
    // the relay's estimate of 90,000 gas × 2 gwei × 3000 USD/ETH = 0.54 USD
    expect(rest).to.deep.equal({
      merchantId: shop.publicId,
      sessionId,
      chainId: 31337,
      token: 'USDC',
      destinationChainId: null,
      amount: '25.000000',
      networkFee: '0.540000',
      cctpFee: '0.000000',
      feeBearer: 'customer',
      total: '25.540000',
      authorization: {
        to: shop.wallet,
        value: '25540000',
        nonce: documentedNonce(shop.merchantId, sessionId),
        // the session ends before the hour does
        validBefore: String(Math.floor(new Date(session.expires_at).getTime() / 1000)),
      },
      domain: domainOf(31337, BASE_USDC),
    });
    expect(Date.parse(expiresAt) / 1000).to.be.within(before + 299, Date.now() / 1000 + 300);
    expect(signature).to.equal(documentedQuoteSignature({ ...rest, quoteId, expiresAt }));
  });

  it('opens a payment intent without a session: its nonce is the quote id, the window one hour at most', async () => {
    const before = Math.floor(Date.now() / 1000);
    const q = await getQuote(h, { merchantId: shop.publicId, chainId: 31337, token: 'USDC', amount: '10.5' });
    expect(q.sessionId).to.equal(null);
    expect(q.amount).to.equal('10.500000');
    expect(q.authorization.nonce).to.equal(documentedNonce(shop.merchantId, q.quoteId));
    expect(Number(q.authorization.validBefore)).to.be.within(
      before + GASLESS_MAX_VALIDITY_SECONDS,
      Math.floor(Date.now() / 1000) + GASLESS_MAX_VALIDITY_SECONDS,
    );
    const again = await getQuote(h, {
      merchantId: shop.publicId,
      chainId: 31337,
      token: 'USDC',
      amount: '10.5',
    });
    expect(again.authorization.nonce).to.not.equal(q.authorization.nonce);
  });

  it("prices a cross-chain payment: the relay on the customer's chain, its burn's and mint's gas and Circle's fee", async () => {
    const q = await getQuote(h, {
      merchantId: shop.publicId,
      chainId: 31338,
      destinationChainId: 31337,
      token: 'USDC',
      amount: '25',
    });
    expect(q).to.include({
      destinationChainId: 31337,
      amount: '25.000000',
      // (90,000 + 200,000) gas of the submission and burn as the relay estimates them, and 265,000 of the mint on the
      // merchant's chain, each × 2 gwei × 3000 USD/ETH: 1.74 + 1.59
      networkFee: '3.330000',
      // the smallest burn that leaves 25 after 1 bp: 25.002501
      cctpFee: '0.002501',
      total: '28.332501',
    });
    expect(q.authorization.to).to.equal(ARB_RELAYER);
    // The relay's gas is the chain-watcher's estimate on the customer's chain, for this very recipient.
    expect(relay.estimates.at(-1)).to.deep.equal({
      chainId: '31338',
      token: 'USDC',
      to: ARB_RELAYER,
      destinationChainId: '31337',
    });
    expect(q.authorization.value).to.equal('28332501');
    expect(q.domain.chainId).to.equal(31338);
  });

  it('refuses what cannot be quoted: an unknown merchant or session, a token or chain not served', async () => {
    const stranger = await h.seedMerchant({ wallet: true });
    const theirs = await openSession(h, stranger);
    const cases: Array<[Record<string, string | number>, number, string | undefined]> = [
      [{ merchantId: `sp_live_${randomUUID()}`, chainId: 31337, token: 'USDC', amount: '5' }, 404, undefined],
      [{ merchantId: shop.publicId, chainId: 31337, token: 'USDC', sessionId: theirs }, 404, undefined],
      [{ merchantId: shop.publicId, chainId: 31337, token: 'EURC', amount: '5' }, 422, 'token_not_supported'],
      [{ merchantId: shop.publicId, chainId: 999, token: 'USDC', amount: '5' }, 400, 'unknown_chain'],
      [{ merchantId: shop.publicId, chainId: 31337, token: 'USDC' }, 400, 'required'],
      [
        { merchantId: shop.publicId, chainId: 31338, destinationChainId: 31337, token: 'EURC', amount: '5' },
        400,
        'cross_chain_unsupported',
      ],
    ];
    for (const [params, status, code] of cases) {
      const res = await quoteOf(params);
      expect(res.status, JSON.stringify(params)).to.equal(status);
      expect(res.body.success).to.equal(false);
      if (code) expect(res.body.details.map((d: { code: string }) => d.code)).to.include(code);
    }
  });

  it('refuses a session that is paid or expired (409)', async () => {
    const expired = await openSession(h, shop);
    await h
      .db('checkout_sessions')
      .where({ id: expired })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const res = await quoteOf({
      merchantId: shop.publicId,
      chainId: 31337,
      token: 'USDC',
      sessionId: expired,
    });
    expect(res.status).to.equal(409);
    expect(res.body.details[0].code).to.equal('session_expired');
  });

  it('answers 503 with Retry-After when the chain-watcher cannot be reached', async () => {
    relay.down = true;
    try {
      const res = await quoteOf({ merchantId: shop.publicId, chainId: 31337, token: 'USDC', amount: '5' });
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.match(/^\d+$/);
      expect(res.body).to.include({ success: false });
    } finally {
      relay.down = false;
    }
  });
});
