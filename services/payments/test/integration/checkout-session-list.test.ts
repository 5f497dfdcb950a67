import { expect } from 'chai';
import { CheckoutSessionListItem } from '@stablepay/contracts';
import { completePayment } from '../../src/payments/payment-state.js';
import { actingAs, paymentBody, startHarness, type Harness, type TestMerchant } from '../support/harness.js';
import { proveSession } from '../support/session-proof.js';

const keysOf = (o: object) => Object.keys(o).sort();

/** GET /checkout/sessions (key) and its twin GET /checkout-sessions (bearer): the merchant's sessions. */
describe('checkout session list (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;
  let other: TestMerchant;
  let paid: string;
  let overdue: string;
  let open: string[];

  const newSession = async (body: Record<string, unknown>, merchant = shop) => {
    const res = await h.call('POST', '/checkout/sessions', {
      ...actingAs(merchant),
      body: { return_url: 'https://shop.example/r', ...body },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data.id as string;
  };
  const list = async (query = '', merchant = shop, caller: 'api_key' | 'user' = 'api_key') => {
    const path = caller === 'user' ? '/checkout-sessions' : '/checkout/sessions';
    return h.call('GET', `${path}${query}`, { ...actingAs(merchant), caller });
  };
  const ids = (res: { body: any }) => (res.body.data.sessions as Array<{ id: string }>).map((s) => s.id);

  before(async () => {
    h = await startHarness();
    shop = await h.seedMerchant({ wallet: true });
    other = await h.seedMerchant({ wallet: true });
    paid = await newSession({ amount: 42, metadata: { order: 'A-1' } });
    const payment = await h.call('POST', '/payments/create-public', {
      body: proveSession(paymentBody(shop, { amount: '42', expectedAmount: '42', sessionId: paid })),
    });
    expect(payment.status, JSON.stringify(payment.body)).to.equal(201);
    await completePayment(h.context, payment.body.data.paymentId, { receivedAmount: '42' });
    overdue = await newSession({ expires_in: 60 });
    // Its minute is over: whether or not the sweeper (every 100 ms here) has marked it yet, the list
    // shows it expired.
    await h
      .db('checkout_sessions')
      .where({ id: overdue })
      .update({ expires_at: new Date(Date.now() - 1000) });
    open = [await newSession({ currency: 'EURC' }), await newSession({ amount: '5.5' })];
    await newSession({}, other);
  });
  after(async () => h?.close());

  it('lists the merchant sessions newest first, each with exactly the session view and its url', async () => {
    const res = await list();
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ total: 4, limit: 50, offset: 0 });
    expect(ids(res)).to.deep.equal([...open].reverse().concat([overdue, paid]));
    for (const s of res.body.data.sessions) {
      expect(keysOf(s)).to.deep.equal(keysOf(CheckoutSessionListItem.shape));
      expect(s.url).to.equal(`https://pay.example.test/?session=${s.id}`);
    }
    const first = res.body.data.sessions.at(-1);
    expect(first).to.include({ status: 'complete', amount: '42.000000', currency: 'USDC' });
    expect(first.metadata).to.deep.equal({ order: 'A-1' });
    expect(first.payment).to.include({ status: 'completed', amount: '42.000000' });
    expect(res.body.data.sessions[2]).to.include({ id: overdue, status: 'expired', payment: null });
  });

  it('filters by the status a reader sees and pages with limit and offset', async () => {
    expect(ids(await list('?status=open'))).to.deep.equal([...open].reverse());
    expect(ids(await list('?status=expired'))).to.deep.equal([overdue]);
    expect(ids(await list('?status=complete'))).to.deep.equal([paid]);
    const page = await list('?limit=2&offset=1');
    expect(page.body.data).to.include({ total: 4, limit: 2, offset: 1 });
    expect(ids(page)).to.deep.equal([open[0], overdue]);
    for (const bad of ['?status=paid', '?limit=0', '?limit=201', '?offset=-1']) {
      const res = await list(bad);
      expect(res.status, bad).to.equal(400);
      expect(res.body.success).to.equal(false);
    }
    expect((await list('?limit=200')).status).to.equal(200);
  });

  it('answers the same to the dashboard twin, and each route only its own kind of caller', async () => {
    const key = await list('?status=open');
    const dashboard = await list('?status=open', shop, 'user');
    expect(dashboard.status).to.equal(200);
    expect(dashboard.body).to.deep.equal(key.body);
    expect(
      (await h.call('GET', '/checkout/sessions', { ...actingAs(shop), caller: 'user' })).status,
    ).to.equal(403);
    expect(
      (await h.call('GET', '/checkout-sessions', { ...actingAs(shop), caller: 'api_key' })).status,
    ).to.equal(403);
    expect((await h.call('GET', '/checkout/sessions', { caller: 'public' })).status).to.equal(401);
  });

  it("never shows another merchant's sessions", async () => {
    const res = await list('', other);
    expect(res.body.data.total).to.equal(1);
    expect(ids(res)).to.not.include.members([paid, overdue, ...open]);
  });
});
