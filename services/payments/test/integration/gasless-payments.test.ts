import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Wallet } from 'ethers';
import {
  CreateGaslessPaymentResponse,
  EventTypes,
  type GaslessQuote,
  type TransferAuthorization,
} from '@stablepay/contracts';
import type { GaslessRelayServer } from '../support/gasless-relay-server.js';
import { refusalAnswer } from '../support/gasless-relay-server.js';
import {
  BASE_RELAYER,
  crossChainQuote,
  getQuote,
  openSession,
  resigned,
  signAuthorization,
  startRelay,
  type AuthorizationTerms,
} from '../support/gasless.js';
import { randomAddress, startHarness, type Harness, type TestMerchant } from '../support/harness.js';

const PAYER_LIMIT = 3;

describe('gasless payments (PostgreSQL + RabbitMQ + a stand-in chain-watcher)', function () {
  this.timeout(30_000);
  let h: Harness;
  let relay: GaslessRelayServer;
  let shop: TestMerchant;

  before(async () => {
    relay = await startRelay();
    h = await startHarness({
      CHAIN_WATCHER_URL: relay.url,
      GASLESS_PAYER_LIMIT_PER_MINUTE: String(PAYER_LIMIT),
    });
    shop = await h.seedMerchant({ wallet: true, currencies: ['USDC'] });
  });
  after(async () => {
    await h?.close();
    await relay?.close();
  });
  afterEach(() => {
    relay.passes({ relayer: BASE_RELAYER, gasUnits: '85000', gasPriceWei: '2000000000' });
  });

  /** A session of 25 USDC, its quote, and a new customer wallet's authorization of exactly it. */
  const sessionPayment = async (change: Partial<AuthorizationTerms> = {}, wallet = Wallet.createRandom()) => {
    const sessionId = await openSession(h, shop);
    const quote = await getQuote(h, { merchantId: shop.publicId, chainId: 31337, token: 'USDC', sessionId });
    const authorization = await signAuthorization(wallet, quote.domain, {
      ...quote.authorization,
      ...change,
    });
    return { sessionId, quote, wallet, authorization, body: bodyOf(quote, authorization) };
  };
  const bodyOf = (quote: GaslessQuote, authorization: TransferAuthorization, extra: object = {}) => ({
    merchantId: quote.merchantId,
    ...(quote.sessionId ? { sessionId: quote.sessionId } : {}),
    chainId: quote.chainId,
    token: quote.token,
    ...(quote.destinationChainId !== null ? { destinationChainId: quote.destinationChainId } : {}),
    authorization,
    quote,
    customerEmail: 'buyer@example.test',
    ...extra,
  });
  const create = (body: unknown) => h.call('POST', '/payments/create-gasless', { body });
  const paymentsOf = (from: string) =>
    h.db('payments').whereRaw('lower(from_address) = ?', [from.toLowerCase()]);
  const eventsOf = (paymentId: string) =>
    h
      .db('outbox')
      .where({ type: EventTypes.PaymentAuthorizationReceived })
      .whereRaw(`envelope::text like ?`, [`%${paymentId}%`]);
  const codes = (res: { body: { details: Array<{ code: string }> } }) => res.body.details.map((d) => d.code);
  /** A refusal leaves nothing behind and asks the relay nothing. */
  const expectRefused = async (body: unknown, status: number, code?: string) => {
    const checks = relay.checks.length;
    const res = await create(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(res.body.success).to.equal(false);
    if (code) expect(codes(res)).to.include(code);
    const from = (body as { authorization: TransferAuthorization }).authorization.from;
    expect(await paymentsOf(from)).to.have.length(0);
    expect(relay.checks.length).to.equal(checks);
    return res;
  };

  it("records a session's payment once: pending, no transaction yet, the session claimed, the quote spent, one event", async () => {
    const p = await sessionPayment();
    const res = await create(p.body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(CreateGaslessPaymentResponse.safeParse(res.body).success).to.equal(true);
    const { paymentId } = res.body.data;
    expect(res.body.data).to.deep.equal({ paymentId, status: 'pending', isCrossChain: false });
    // The relay was asked about exactly this authorization, for the merchant's internal id.
    expect(relay.checks.at(-1)).to.deep.equal({
      merchantId: shop.merchantId,
      chainId: 31337,
      token: 'USDC',
      destinationChainId: null,
      authorization: p.authorization,
    });
    const [row] = await paymentsOf(p.wallet.address);
    expect(row).to.include({
      id: paymentId,
      tx_hash: '',
      funding: 'authorization',
      status: 'pending',
      from_address: p.wallet.address,
      to_address: shop.wallet,
      session_id: p.sessionId,
      fee_bearer: 'customer',
    });
    expect(row.amount).to.equal('25.000000');
    expect(row.expected_amount).to.equal('25.540000');
    const session = await h.db('checkout_sessions').where({ id: p.sessionId }).first();
    expect(session.payment_id).to.equal(paymentId);
    const used = await h.db('fee_quote_uses').where({ signature: p.quote.signature }).first();
    expect(used.payment_id).to.equal(paymentId);
    const [event] = await eventsOf(paymentId);
    const envelope = typeof event.envelope === 'string' ? JSON.parse(event.envelope) : event.envelope;
    expect(envelope.data).to.deep.include({
      paymentId,
      merchantId: shop.merchantId,
      chainId: 31337,
      sourceChain: 'BASE',
      currency: 'USDC',
      amount: '25.000000',
      toAddress: shop.wallet,
      isCrossChain: false,
      destinationChainId: null,
      networkFee: '0.540000',
      cctpFee: '0.000000',
      feeBearer: 'customer',
      sessionId: p.sessionId,
    });
    expect(envelope.data.authorization).to.deep.equal(p.authorization);
    // The same authorization again, even all at once: the same payment, 200, nothing new.
    const again = await Promise.all([create(p.body), create(p.body), create(p.body)]);
    for (const r of again) expect(r.status).to.equal(200);
    for (const r of again) expect(r.body.data.paymentId).to.equal(paymentId);
    expect(await paymentsOf(p.wallet.address)).to.have.length(1);
    expect(await eventsOf(paymentId)).to.have.length(1);
  });

  it('pays a payment intent without a session, and a cross-chain one through the relay', async () => {
    const wallet = Wallet.createRandom();
    const intent = await getQuote(h, {
      merchantId: shop.publicId,
      chainId: 31337,
      token: 'USDC',
      amount: '7',
    });
    const a = await signAuthorization(wallet, intent.domain, intent.authorization);
    const res = await create(bodyOf(intent, a, { reference: 'order-7' }));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const cross = await crossChainQuote(h, shop.publicId, '7');
    const b = await signAuthorization(wallet, cross.domain, cross.authorization);
    const crossRes = await create(bodyOf(cross, b));
    expect(crossRes.status, JSON.stringify(crossRes.body)).to.equal(201);
    expect(crossRes.body.data.isCrossChain).to.equal(true);
    const row = await h.db('payments').where({ id: crossRes.body.data.paymentId }).first();
    expect(row).to.include({ source_chain: 'ARB', destination_chain: 'BASE', to_address: shop.wallet });
    expect(row.signed_authorization.to).to.equal(cross.authorization.to);
    expect(relay.checks.at(-1)!.destinationChainId).to.equal(31337);
  });

  it('lets one of several payers racing for one session have it; the others get 409 and spend nothing', async () => {
    const sessionId = await openSession(h, shop);
    const quotes = await Promise.all(
      [0, 1, 2].map(() =>
        getQuote(h, { merchantId: shop.publicId, chainId: 31337, token: 'USDC', sessionId }),
      ),
    );
    const bodies = await Promise.all(
      quotes.map(async (q) =>
        bodyOf(q, await signAuthorization(Wallet.createRandom(), q.domain, q.authorization)),
      ),
    );
    const answers = await Promise.all(bodies.map((b) => create(b)));
    expect(answers.map((r) => r.status).sort()).to.deep.equal([201, 409, 409]);
    for (const r of answers.filter((x) => x.status === 409)) expect(codes(r)).to.deep.equal(['session_used']);
    const winner = answers.find((r) => r.status === 201)!.body.data.paymentId;
    expect((await h.db('checkout_sessions').where({ id: sessionId }).first()).payment_id).to.equal(winner);
    const spent = await h.db('fee_quote_uses').whereIn(
      'signature',
      quotes.map((q) => q.signature),
    );
    expect(spent.map((u) => u.payment_id)).to.deep.equal([winner]);
  });

  it('refuses an authorization that does not pay exactly this payment (422, nothing stored, nothing sent)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[Partial<AuthorizationTerms>, string]> = [
      [{ nonce: `0x${'ab'.repeat(32)}` }, 'authorization_nonce_mismatch'],
      [{ to: randomAddress() }, 'authorization_recipient_mismatch'],
      [{ value: '25000000' }, 'authorization_value_mismatch'],
      [{ validBefore: String(now + 7200) }, 'authorization_window_too_long'],
      [{ validBefore: String(now - 10) }, 'authorization_expired'],
      [{ validAfter: String(now + 600) }, 'authorization_not_yet_valid'],
    ];
    for (const [change, code] of cases) {
      const p = await sessionPayment(change);
      const res = await expectRefused(p.body, 422, code);
      expect(codes(res), code).to.deep.equal([code]);
    }
  });

  it("refuses a signature that is not the payer's, and a window past the session's expiry", async () => {
    const p = await sessionPayment();
    const forged = await signAuthorization(Wallet.createRandom(), p.quote.domain, p.quote.authorization);
    await expectRefused(
      bodyOf(p.quote, { ...forged, from: p.wallet.address }),
      422,
      'authorization_signature_invalid',
    );
    const otherDomain = await signAuthorization(
      p.wallet,
      { ...p.quote.domain, name: 'USDC' },
      p.quote.authorization,
    );
    await expectRefused(bodyOf(p.quote, otherDomain), 422, 'authorization_signature_invalid');
    // A session that ends in ten minutes: a window of half an hour outlives it.
    const sessionId = await openSession(h, shop, { amount: '25', expires_in: 600 });
    const quote = await getQuote(h, { merchantId: shop.publicId, chainId: 31337, token: 'USDC', sessionId });
    const long = await signAuthorization(p.wallet, quote.domain, {
      ...quote.authorization,
      validBefore: String(Math.floor(Date.now() / 1000) + 1800),
    });
    await expectRefused(bodyOf(quote, long), 422, 'authorization_window_too_long');
  });

  it('refuses a quote that is forged, expired, or for another session or amount', async () => {
    const p = await sessionPayment();
    await expectRefused(
      bodyOf({ ...p.quote, networkFee: '0.000001' }, p.authorization),
      422,
      'quote_signature_invalid',
    );
    const expired = resigned(p.quote, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    await expectRefused(bodyOf(expired, p.authorization), 422, 'quote_expired');
    // The quote of one session, with another session of the same amount.
    const other = await openSession(h, shop);
    await expectRefused({ ...p.body, sessionId: other }, 422, 'quote_mismatch');
    const intent = await getQuote(h, {
      merchantId: shop.publicId,
      chainId: 31337,
      token: 'USDC',
      amount: '7',
    });
    const a = await signAuthorization(p.wallet, intent.domain, intent.authorization);
    await expectRefused(bodyOf(intent, a, { amount: '8' }), 422, 'quote_mismatch');
  });

  it('answers 404 for an unknown merchant or session and 409 for a closed session', async () => {
    const p = await sessionPayment();
    await expectRefused({ ...p.body, merchantId: `sp_live_${randomUUID()}` }, 404);
    const stranger = await h.seedMerchant({ wallet: true, currencies: ['USDC'] });
    const theirs = await openSession(h, stranger);
    await expectRefused({ ...p.body, sessionId: theirs }, 404);
    await h
      .db('checkout_sessions')
      .where({ id: p.sessionId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const closed = await expectRefused(p.body, 409, 'session_expired');
    expect(closed.body.error).to.equal('Checkout session has expired');
  });

  it('passes the relay’s refusal through unchanged, storing nothing', async () => {
    const answers = [
      refusalAnswer(422, 'authorization_insufficient_balance'),
      refusalAnswer(422, 'authorization_nonce_used'),
      refusalAnswer(503, 'relay_low_on_gas', 120),
      refusalAnswer(429, 'relay_gas_budget_spent', 3600),
    ];
    for (const answer of answers) {
      relay.check = answer;
      const p = await sessionPayment();
      const res = await create(p.body);
      expect(res.status).to.equal(answer.status);
      expect(res.body).to.deep.equal(answer.body);
      if (answer.retryAfter) expect(res.headers.get('retry-after')).to.equal(String(answer.retryAfter));
      expect(await paymentsOf(p.wallet.address)).to.have.length(0);
      const session = await h.db('checkout_sessions').where({ id: p.sessionId }).first();
      expect(session.payment_id).to.equal(null);
    }
    const p = await sessionPayment();
    relay.down = true;
    try {
      const res = await create(p.body);
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.match(/^\d+$/);
    } finally {
      relay.down = false;
    }
  });

  it(`opens at most ${PAYER_LIMIT} gasless payments per payer a minute (429 with Retry-After)`, async () => {
    const wallet = Wallet.createRandom();
    for (let i = 0; i < PAYER_LIMIT; i++) {
      const p = await sessionPayment({}, wallet);
      expect((await create(p.body)).status).to.equal(201);
    }
    const p = await sessionPayment({}, wallet);
    const checks = relay.checks.length;
    const res = await create(p.body);
    expect(res.status).to.equal(429);
    expect(codes(res)).to.deep.equal(['payer_rate_limited']);
    expect(res.headers.get('retry-after')).to.equal('60');
    expect(relay.checks.length).to.equal(checks);
    expect(await paymentsOf(wallet.address)).to.have.length(PAYER_LIMIT);
  });
});
