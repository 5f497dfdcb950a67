import { expect } from 'chai';
import nock from 'nock';
import { Stablepay, StablepayError } from '../../src/index.js';

const BASE = 'https://gateway.test';
const KEY = 'sp_live_test';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const client = (over: Partial<ConstructorParameters<typeof Stablepay>[0]> = {}) =>
  new Stablepay({ apiKey: KEY, baseUrl: BASE, maxRetries: 2, ...over });

const session = { id: uuid(1), url: 'https://pay.test/c/1', expires_at: '2026-01-01T00:00:00.000Z' };

describe('@stablepay/node client', () => {
  before(() => nock.disableNetConnect());
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending, 'every expected request was made').to.deep.equal([]);
  });
  after(() => nock.enableNetConnect());

  it('sends the API key and returns the envelope’s data', async () => {
    nock(BASE, { reqheaders: { 'x-api-key': KEY } })
      .get(`/payments/api/${uuid(7)}`)
      .reply(200, { success: true, data: { id: uuid(7), amount: '12.500000' } });
    const payment = await client().payments.retrieve(uuid(7));
    expect(payment).to.include({ id: uuid(7), amount: '12.500000' });
  });

  it('generates one Idempotency-Key per write and keeps it on every retry', async () => {
    const keys: string[] = [];
    nock(BASE)
      .post('/checkout/sessions', { amount: '10.00', return_url: 'https://shop.test/done' })
      .times(2)
      .reply(function () {
        keys.push(String(this.req.headers['idempotency-key']));
        return keys.length === 1
          ? [503, { success: false, error: 'busy', details: [] }, { 'Retry-After': '0' }]
          : [201, { success: true, data: session }];
      });
    const created = await client().checkout.sessions.create({
      amount: '10.00',
      return_url: 'https://shop.test/done',
    });
    expect(created).to.deep.equal(session);
    expect(keys[0]).to.match(/^[0-9a-f-]{36}$/);
    expect(keys[1]).to.equal(keys[0]);

    let given: string | undefined;
    nock(BASE)
      .post('/refunds/api/create')
      .reply(function () {
        given = String(this.req.headers['idempotency-key']);
        return [201, { success: true, data: { id: uuid(2) } }];
      });
    await client().refunds.create(
      { paymentId: uuid(3), reason: 'other' },
      { idempotencyKey: 'order-42-refund' },
    );
    expect(given).to.equal('order-42-refund');
  });

  it('sends no Idempotency-Key on reads, and a fresh one for each separate write', async () => {
    const seen: Array<string | undefined> = [];
    nock(BASE)
      .get('/wallets/api/balance')
      .reply(function () {
        seen.push(this.req.headers['idempotency-key'] as string | undefined);
        return [200, { success: true, data: { wallet_id: uuid(1), balances: [] } }];
      })
      .post(`/merchant-webhooks/api/${uuid(4)}/test`)
      .times(2)
      .reply(function () {
        seen.push(String(this.req.headers['idempotency-key']));
        return [200, { success: true, data: { success: true } }];
      });
    const sp = client();
    await sp.balance.retrieve();
    await sp.webhookEndpoints.test(uuid(4));
    await sp.webhookEndpoints.test(uuid(4));
    expect(seen[0]).to.equal(undefined);
    expect(seen[1]).to.not.equal(seen[2]);
  });

  it('honours Retry-After on 429 before retrying', async () => {
    const at: number[] = [];
    nock(BASE)
      .get('/refunds/api/list')
      .times(2)
      .reply(() => {
        at.push(Date.now());
        return at.length === 1
          ? [429, { success: false, error: 'Too many requests', details: [] }, { 'Retry-After': '1' }]
          : [200, { success: true, data: { refunds: [], total: 0, limit: 50, offset: 0 } }];
      });
    const page = await client().refunds.list();
    expect(page.data).to.deep.equal([]);
    expect(at[1]! - at[0]!).to.be.at.least(950);
  });

  it('retries network errors and 5xx up to maxRetries, then throws the last error', async () => {
    nock(BASE).get('/withdrawals/api/list').replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
    nock(BASE).get('/withdrawals/api/list').reply(502, 'bad gateway');
    nock(BASE)
      .get('/withdrawals/api/list')
      .reply(500, { success: false, error: 'Internal error', details: [] });
    const err = await client({ maxRetries: 2 })
      .withdrawals.list()
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(StablepayError);
    expect(err).to.include({ status: 500, message: 'Internal error', code: 'server_error' });

    nock(BASE).get('/withdrawals/api/list').replyWithError({ code: 'ECONNREFUSED', message: 'refused' });
    const net = await client({ maxRetries: 0 })
      .withdrawals.list()
      .catch((e: unknown) => e);
    expect(net).to.be.instanceOf(StablepayError);
    expect(net).to.include({ status: 0, code: 'network_error' });
  });

  it('does not retry a 4xx and reports status, message, code and details', async () => {
    nock(BASE)
      .post('/refunds/api/create')
      .once()
      .reply(422, {
        success: false,
        error: 'Refund exceeds what can be refunded',
        details: [{ path: 'amount', message: 'at most 5.000000', code: 'amount_exceeds_refundable' }],
      });
    const err = (await client()
      .refunds.create({ paymentId: uuid(5), reason: 'other', amount: '9' })
      .catch((e: unknown) => e)) as StablepayError;
    expect(err).to.be.instanceOf(StablepayError);
    expect(err.status).to.equal(422);
    expect(err.message).to.equal('Refund exceeds what can be refunded');
    expect(err.code).to.equal('amount_exceeds_refundable');
    expect(err.details).to.deep.equal([
      { path: 'amount', message: 'at most 5.000000', code: 'amount_exceeds_refundable' },
    ]);

    nock(BASE)
      .get(`/checkout/sessions/${uuid(6)}`)
      .reply(404, { success: false, error: 'Not found', details: [] });
    const missing = (await client()
      .checkout.sessions.retrieve(uuid(6))
      .catch((e: unknown) => e)) as StablepayError;
    expect(missing).to.include({ status: 404, code: 'not_found' });
  });

  it('gives up on an attempt after timeoutMs and retries it', async () => {
    nock(BASE).get('/wallets/api/balance').delay(500).reply(200, { success: true, data: {} });
    nock(BASE)
      .get('/wallets/api/balance')
      .reply(200, { success: true, data: { wallet_id: uuid(9) } });
    const started = Date.now();
    const balance = await client({ timeoutMs: 100 }).balance.retrieve();
    expect(balance).to.deep.equal({ wallet_id: uuid(9) });
    expect(Date.now() - started).to.be.below(2_000);

    nock(BASE).get('/wallets/api/balance').delay(500).reply(200, { success: true, data: {} });
    const err = await client({ timeoutMs: 100, maxRetries: 0 })
      .balance.retrieve()
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(StablepayError);
    expect(err).to.include({ status: 0, code: 'timeout' });
  });

  it('lists a page that is also an async iterator over every page', async () => {
    const payments = Array.from({ length: 5 }, (_, i) => ({ id: uuid(i + 1), amount: `${i + 1}.000000` }));
    const page = (offset: number) => ({
      success: true,
      data: { payments: payments.slice(offset, offset + 2), total: 5, limit: 2, offset },
    });
    nock(BASE)
      .get('/payments/api/list')
      .query({ limit: '2', status: 'completed' })
      .reply(200, page(0))
      .get('/payments/api/list')
      .query({ limit: '2', status: 'completed', offset: '2' })
      .reply(200, page(2))
      .get('/payments/api/list')
      .query({ limit: '2', status: 'completed', offset: '4' })
      .reply(200, page(4));
    const first = await client().payments.list({ limit: 2, status: 'completed' });
    expect(first.data.map((p) => p.id)).to.deep.equal([uuid(1), uuid(2)]);
    expect(first).to.include({ total: 5, limit: 2, offset: 0, hasMore: true });
    const all: string[] = [];
    for await (const p of first) all.push(p.id);
    expect(all).to.deep.equal(payments.map((p) => p.id));
  });

  it('walks pages with pages() and stops after the last', async () => {
    nock(BASE)
      .get('/events/api/list')
      .reply(200, { success: true, data: { events: [{ id: 'a' }], total: 2, limit: 1, offset: 0 } })
      .get('/events/api/list')
      .query({ offset: '1' })
      .reply(200, { success: true, data: { events: [{ id: 'b' }], total: 2, limit: 1, offset: 1 } });
    const offsets: number[] = [];
    for await (const p of (await client().events.list()).pages()) offsets.push(p.offset);
    expect(offsets).to.deep.equal([0, 1]);
  });

  it('reaches every resource at its catalogue path', async () => {
    const ok = (data: unknown) => [200, { success: true, data }] as const;
    nock(BASE)
      .put(`/merchant-webhooks/api/${uuid(1)}`, { is_active: true })
      .reply(...ok({ id: uuid(1) }))
      .delete(`/merchant-webhooks/api/${uuid(1)}`)
      .reply(200, { success: true, message: 'deleted' })
      .post(`/merchant-webhooks/api/${uuid(1)}/regenerate-secret`)
      .reply(...ok({ id: uuid(1), secret: 'whsec_x' }))
      .get(`/merchant-webhooks/api/${uuid(1)}/logs`)
      .query({ limit: '5' })
      .reply(...ok({ logs: [{ id: 'l' }] }))
      .get('/merchant-webhooks/api/events')
      .reply(...ok([{ name: 'payment.completed' }]))
      .post(`/refunds/api/${uuid(2)}/cancel`)
      .reply(200, { success: true })
      .get('/invoices/api/list')
      .query({ year: '2026' })
      .reply(...ok([]))
      .get(`/invoices/api/${uuid(3)}/pdf`)
      .query({ mode: 'download' })
      .reply(200, Buffer.from('%PDF-1.7'), { 'Content-Type': 'application/pdf' })
      .get('/balance-transactions/api/list')
      .reply(...ok({ balance_transactions: [], total: 0, limit: 50, offset: 0 }));
    const sp = client();
    expect(await sp.webhookEndpoints.update(uuid(1), { is_active: true })).to.deep.equal({ id: uuid(1) });
    expect(await sp.webhookEndpoints.delete(uuid(1))).to.equal(undefined);
    expect((await sp.webhookEndpoints.regenerateSecret(uuid(1))).secret).to.equal('whsec_x');
    expect(await sp.webhookEndpoints.logs(uuid(1), { limit: 5 })).to.deep.equal([{ id: 'l' }]);
    expect(await sp.events.types()).to.deep.equal([{ name: 'payment.completed' }]);
    expect(await sp.refunds.cancel(uuid(2))).to.equal(undefined);
    expect(await sp.invoices.list({ year: 2026 })).to.deep.equal([]);
    expect(new TextDecoder().decode(await sp.invoices.pdf(uuid(3), { mode: 'download' }))).to.equal(
      '%PDF-1.7',
    );
    expect((await sp.balanceTransactions.list()).data).to.deep.equal([]);
  });

  it('stops when the caller aborts, during a request or while waiting to retry, with its own error', async () => {
    nock(BASE)
      .get('/wallets/api/balance')
      .reply(503, { success: false, error: 'busy', details: [] }, { 'Retry-After': '30' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await client()
      .balance.retrieve({ signal: controller.signal })
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(StablepayError);
    expect(err).to.include({ status: 0, code: 'aborted' });

    nock(BASE).get('/wallets/api/balance').delay(1_000).reply(200, { success: true, data: {} });
    const during = await client()
      .balance.retrieve({ signal: AbortSignal.timeout(50) })
      .catch((e: unknown) => e);
    expect(during).to.be.instanceOf(StablepayError);
    expect(during).to.include({ code: 'aborted' });
  });
});
