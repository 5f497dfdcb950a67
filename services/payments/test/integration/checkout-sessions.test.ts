import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import {
  CheckoutSession,
  PublicCheckoutSession,
  type CheckoutSessionExpiredData,
} from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { actingAs, startHarness, type Harness, type TestMerchant } from '../support/harness.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const keysOf = (o: object) => Object.keys(o).sort();

describe('checkout sessions (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;
  let usdcOnly: TestMerchant;

  before(async () => {
    h = await startHarness();
    shop = await h.seedMerchant({ wallet: true });
    usdcOnly = await h.seedMerchant({ currencies: ['USDC'] });
  });
  after(async () => h?.close());

  const createSession = (body: Record<string, unknown>, merchant = shop) =>
    h.call('POST', '/checkout/sessions', {
      ...actingAs(merchant),
      body: { return_url: 'https://shop.example/done', ...body },
    });
  const paths = (res: { body: any }) => (res.body.details as Array<{ path: string }>).map((d) => d.path);

  describe('POST /checkout/sessions', () => {
    it('answers 201 with exactly id, url and expires_at; id cs_live_<uuid>; url {checkout_url}?session=<id>', async () => {
      const before = Date.now();
      const res = await createSession({ amount: 12.5, metadata: { order: 'A-1' } });
      expect(res.status).to.equal(201);
      expect(res.body.success).to.equal(true);
      expect(keysOf(res.body.data)).to.deep.equal(['expires_at', 'id', 'url']);
      const { id, url, expires_at } = res.body.data;
      expect(id).to.match(new RegExp(`^cs_live_${UUID}$`));
      expect(url).to.equal(`https://pay.example.test/?session=${id}`);
      // default lifetime 1800 s
      const lifetime = Date.parse(expires_at) - before;
      expect(lifetime).to.be.within(1795_000, 1805_000);
    });

    it('is also served at /public/checkout/sessions', async () => {
      const res = await h.call('POST', '/public/checkout/sessions', {
        ...actingAs(shop),
        body: { return_url: 'https://shop.example/done' },
      });
      expect(res.status).to.equal(201);
    });

    it('keeps expires_in within 60..86400', async () => {
      for (const expires_in of [59, 86401, 60.5, '600']) {
        const res = await createSession({ expires_in });
        expect(res.status, `expires_in ${expires_in}`).to.equal(400);
        expect(paths(res)).to.deep.equal(['expires_in']);
      }
      for (const expires_in of [60, 86400]) {
        const res = await createSession({ expires_in });
        expect(res.status).to.equal(201);
        const got = await h.call('GET', `/checkout/sessions/${res.body.data.id}`, actingAs(shop));
        const { created_at, expires_at } = got.body.data;
        expect(Date.parse(expires_at) - Date.parse(created_at)).to.equal(expires_in * 1000);
      }
    });

    it('requires HTTPS return and cancel URLs', async () => {
      const res = await createSession({
        return_url: 'http://shop.example/done',
        cancel_url: 'http://shop.example/x',
      });
      expect(res.status).to.equal(400);
      expect(paths(res)).to.have.members(['return_url', 'cancel_url']);
      const missing = await h.call('POST', '/checkout/sessions', { ...actingAs(shop), body: {} });
      expect(missing.status).to.equal(400);
      expect(paths(missing)).to.deep.equal(['return_url']);
      const notUrl = await createSession({ return_url: 'javascript:alert(1)' });
      expect(paths(notUrl)).to.deep.equal(['return_url']);
    });

    it('allows up to 5 metadata pairs', async () => {
      const five = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, `v${i}`]));
      expect((await createSession({ metadata: five })).status).to.equal(201);
      const six = await createSession({ metadata: { ...five, k5: 'v5' } });
      expect(six.status).to.equal(400);
      expect(paths(six)).to.deep.equal(['metadata']);
    });

    it('answers 400, not 500, for NUL characters in metadata', async () => {
      const res = await createSession({ metadata: { note: 'a\u0000' } });
      expect(res.status).to.equal(400);
      expect(paths(res)).to.deep.equal(['metadata.note']);
    });

    it('checks amount range and currency', async () => {
      for (const amount of [0.001, 1_000_000.01, -1, 'abc']) {
        const res = await createSession({ amount });
        expect(res.status, `amount ${amount}`).to.equal(400);
        expect(paths(res)).to.deep.equal(['amount']);
      }
      expect(paths(await createSession({ currency: 'USDT' }))).to.deep.equal(['currency']);
      const refused = await createSession({ currency: 'EURC' }, usdcOnly);
      expect(refused.status).to.equal(400);
      expect(paths(refused)).to.deep.equal(['currency']);
    });

    it('is for API keys only', async () => {
      const body = { return_url: 'https://shop.example/done' };
      expect((await h.call('POST', '/checkout/sessions', { caller: 'public', body })).status).to.equal(401);
      expect(
        (await h.call('POST', '/checkout/sessions', { ...actingAs(shop), caller: 'user', body })).status,
      ).to.equal(403);
    });
  });

  describe('GET /checkout/sessions/:id and /public', () => {
    it('returns the merchant view with metadata and the public view without it', async () => {
      const created = await createSession({
        amount: '12.5',
        currency: 'EURC',
        metadata: { order: 'A-2' },
        cancel_url: 'https://shop.example/c',
      });
      const id = created.body.data.id;
      const full = await h.call('GET', `/checkout/sessions/${id}`, actingAs(shop));
      expect(full.status).to.equal(200);
      expect(keysOf(full.body.data)).to.deep.equal(keysOf(CheckoutSession.shape));
      expect(full.body.data).to.deep.include({
        id,
        status: 'open',
        amount: '12.500000',
        currency: 'EURC',
        metadata: { order: 'A-2' },
        return_url: 'https://shop.example/done',
        cancel_url: 'https://shop.example/c',
        payment: null,
        expires_at: created.body.data.expires_at,
      });
      const pub = await h.call('GET', `/checkout/sessions/${id}/public`);
      expect(pub.status).to.equal(200);
      expect(keysOf(pub.body.data)).to.deep.equal(keysOf(PublicCheckoutSession.shape));
      expect(pub.body.data).to.not.have.property('metadata');
      expect(pub.body.data.merchant).to.deep.equal({
        id: shop.publicId,
        name: 'Test Shop',
        blockchain: 'BASE',
        wallet_address: shop.wallet,
        chain_id: 31337,
      });
    });

    it('fills {CHECKOUT_SESSION_ID} in return_url and cancel_url with the session id, and stores them as given', async () => {
      const created = await createSession({
        return_url: 'https://shop.example/done/{CHECKOUT_SESSION_ID}?session={CHECKOUT_SESSION_ID}',
        cancel_url: 'https://shop.example/cart?from={CHECKOUT_SESSION_ID}',
      });
      const id = created.body.data.id;
      const full = await h.call('GET', `/checkout/sessions/${id}`, actingAs(shop));
      const pub = await h.call('GET', `/checkout/sessions/${id}/public`);
      const list = await h.call('GET', '/checkout/sessions?limit=100', actingAs(shop));
      const listed = list.body.data.sessions.find((s: { id: string }) => s.id === id);
      for (const view of [full.body.data, pub.body.data, listed]) {
        expect(view).to.include({
          return_url: `https://shop.example/done/${id}?session=${id}`,
          cancel_url: `https://shop.example/cart?from=${id}`,
        });
      }
      const row = await h.db('checkout_sessions').where({ id }).first();
      expect(row.return_url).to.equal(
        'https://shop.example/done/{CHECKOUT_SESSION_ID}?session={CHECKOUT_SESSION_ID}',
      );
      // A URL without the placeholder is untouched, braces of its own included.
      const plain = await createSession({ return_url: 'https://shop.example/done?x={other}' });
      const plainView = await h.call('GET', `/checkout/sessions/${plain.body.data.id}/public`);
      expect(plainView.body.data.return_url).to.equal('https://shop.example/done?x={other}');
      expect(plainView.body.data.cancel_url).to.equal(null);
    });

    it('defaults to USDC and a variable amount', async () => {
      const created = await createSession({});
      const got = await h.call('GET', `/checkout/sessions/${created.body.data.id}`, actingAs(shop));
      expect(got.body.data).to.include({ currency: 'USDC', amount: null, cancel_url: null });
      expect(got.body.data.metadata).to.deep.equal({});
    });

    it("answers 404 for another merchant's session and for unknown ids", async () => {
      const created = await createSession({});
      const other = await h.call('GET', `/checkout/sessions/${created.body.data.id}`, actingAs(usdcOnly));
      expect(other.status).to.equal(404);
      expect(other.body).to.deep.equal({ success: false, error: 'Checkout session not found', details: [] });
      expect((await h.call('GET', `/checkout/sessions/cs_live_${randomUUID()}/public`)).status).to.equal(404);
      expect((await h.call('GET', '/checkout/sessions/nope/public')).status).to.equal(400);
    });

    it('keeps the key view from dashboard and public callers', async () => {
      const created = await createSession({});
      const path = `/checkout/sessions/${created.body.data.id}`;
      expect((await h.call('GET', path, { ...actingAs(shop), caller: 'user' })).status).to.equal(403);
      expect((await h.call('GET', path, { caller: 'public' })).status).to.equal(401);
    });
  });

  describe('expiry', () => {
    it('the worker expires a due session without any read and publishes checkout.session.expired once', async () => {
      const observer = await h.observe(['checkout.session.expired']);
      try {
        const created = await createSession({ expires_in: 60 });
        const id = created.body.data.id as string;
        await h
          .db('checkout_sessions')
          .where({ id })
          .update({ expires_at: h.db.raw(`now() - interval '1 second'`) });
        await waitFor(() => h.db('checkout_sessions').where({ id, status: 'expired' }).first());
        await waitFor(
          async () =>
            (
              await h
                .db('outbox')
                .whereRaw(`envelope->'data'->>'sessionId' = ?`, [id])
                .whereNotNull('published_at')
            ).length === 1,
        );
        // the sweeper keeps running (every 100 ms); give it passes, then flush the queue
        const expiredRow = await h.db('checkout_sessions').where({ id }).first();
        await waitFor(async () => Date.now() - new Date(expiredRow.expired_at).getTime() > 500);
        await observer.drain();
        const events = observer.messages.filter((m) => m.data?.sessionId === id);
        expect(events).to.have.length(1);
        const data = events[0]!.data as CheckoutSessionExpiredData;
        expect(events[0]).to.include({ type: 'checkout.session.expired', merchantId: shop.merchantId });
        expect(data).to.include({ sessionId: id, merchantId: shop.merchantId });
        const got = await h.call('GET', `/checkout/sessions/${id}`, actingAs(shop));
        expect(got.body.data.status).to.equal('expired');
      } finally {
        await observer.close();
      }
    });
  });
});

describe('checkout sessions in development mode (insecure URLs allowed, test ids, slow sweeper)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;

  before(async () => {
    h = await startHarness({
      ALLOW_INSECURE_URLS: 'true',
      ENVIRONMENT: 'test',
      CHECKOUT_EXPIRY_SWEEP_MS: '600000',
    });
    shop = await h.seedMerchant({});
  });
  after(async () => h?.close());

  it('accepts http URLs and issues cs_test_ ids', async () => {
    const res = await h.call('POST', '/checkout/sessions', {
      ...actingAs(shop),
      body: { return_url: 'http://localhost:3000/done', cancel_url: 'http://localhost:3000/cancel' },
    });
    expect(res.status).to.equal(201);
    expect(res.body.data.id).to.match(new RegExp(`^cs_test_${UUID}$`));
  });

  it('expires a due session on read when the sweeper has not run, writing the event once', async () => {
    const res = await h.call('POST', '/checkout/sessions', {
      ...actingAs(shop),
      body: { return_url: 'http://localhost/done' },
    });
    const id = res.body.data.id as string;
    await h
      .db('checkout_sessions')
      .where({ id })
      .update({ expires_at: h.db.raw(`now() - interval '1 second'`) });
    const [first, second] = await Promise.all([
      h.call('GET', `/checkout/sessions/${id}`, actingAs(shop)),
      h.call('GET', `/checkout/sessions/${id}/public`),
    ]);
    expect(first.body.data.status).to.equal('expired');
    expect(second.body.data.status).to.equal('expired');
    const events = await h
      .db('outbox')
      .where({ type: 'checkout.session.expired' })
      .whereRaw(`envelope->'data'->>'sessionId' = ?`, [id]);
    expect(events).to.have.length(1);
  });
});
