import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { MerchantPaymentDetail, PaymentDetail, PaymentListItem, PaymentListPage } from '@stablepay/contracts';
import { actingAs, paymentBody, startHarness, type Harness, type TestMerchant } from '../support/harness.js';

const keysOf = (o: object) => Object.keys(o).sort();

describe('payment lists and details (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;
  let other: TestMerchant;
  const ids: string[] = [];

  // Five payments of `shop` with known amounts, currencies, texts and creation days.
  const fixtures = [
    {
      amount: '10',
      token: 'USDC',
      reference: 'order_1%',
      customerEmail: 'alice@example.test',
      day: '2025-01-10T12:00:00.000Z',
    },
    {
      amount: '30',
      token: 'USDC',
      reference: 'orderX1a',
      customerEmail: 'bob@example.test',
      day: '2025-01-11T00:00:00.000Z',
    },
    {
      amount: '20',
      token: 'EURC',
      reference: 'inv-77',
      customerEmail: 'carol@example.test',
      day: '2025-01-11T23:59:59.999Z',
    },
    {
      amount: '20',
      token: 'USDC',
      reference: undefined,
      customerEmail: 'dave@example.test',
      day: '2025-01-12T08:00:00.000Z',
    },
    {
      amount: '5.25',
      token: 'USDC',
      reference: 'inv-78',
      customerEmail: 'ALICE@example.test',
      day: '2025-01-13T08:00:00.000Z',
    },
  ];

  before(async () => {
    h = await startHarness();
    shop = await h.seedMerchant({});
    other = await h.seedMerchant({});
    for (const f of fixtures) {
      const res = await h.call('POST', '/payments/create-public', {
        body: paymentBody(shop, {
          amount: f.amount,
          expectedAmount: f.amount,
          token: f.token,
          reference: f.reference,
          customerEmail: f.customerEmail,
          metadata: { n: f.amount },
        }),
      });
      expect(res.status).to.equal(201);
      ids.push(res.body.data.paymentId);
      await h.db('payments').where({ id: res.body.data.paymentId }).update({ created_at: f.day });
    }
    await h.db('payments').where({ id: ids[1] }).update({ status: 'completed' });
    await h.db('payments').where({ id: ids[2] }).update({ status: 'pending_attestation' });
    await h.db('payments').where({ id: ids[3] }).update({ status: 'failed', failure_reason: 'reverted' });
    await h.call('POST', '/payments/create-public', { body: paymentBody(other) });
  });
  after(async () => h?.close());

  const list = (query: string, merchant = shop, caller: 'api_key' | 'user' = 'api_key') =>
    h.call('GET', `${caller === 'api_key' ? '/payments/api/list' : '/payments'}${query ? `?${query}` : ''}`, {
      ...actingAs(merchant),
      caller,
    });
  const listIds = async (query: string) => {
    const res = await list(query);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (res.body.data.payments as Array<{ id: string }>).map((p) => ids.indexOf(p.id));
  };
  const paths = (res: { body: any }) => (res.body.details as Array<{ path: string }>).map((d) => d.path);

  it('answers {payments, total, limit, offset} with exactly the list view fields', async () => {
    const res = await list('');
    expect(res.status).to.equal(200);
    expect(keysOf(res.body.data)).to.deep.equal(keysOf(PaymentListPage.shape));
    expect(res.body.data).to.include({ total: 5, limit: 50, offset: 0 });
    for (const p of res.body.data.payments) expect(keysOf(p)).to.deep.equal(keysOf(PaymentListItem.shape));
    const first = res.body.data.payments.find((p: { id: string }) => p.id === ids[0]);
    expect(first).to.deep.include({
      amount: '10.000000',
      currency: 'USDC',
      status: 'pending',
      source_chain: 'BASE',
      is_cross_chain: false,
      reference: 'order_1%',
      created_at: fixtures[0]!.day,
    });
    expect(first.metadata).to.deep.equal({ n: '10' });
    expect(res.body.data.payments.find((p: { id: string }) => p.id === ids[3]).reference).to.equal(null);
  });

  it('sorts newest first by default, by whitelisted columns only, ties broken by id', async () => {
    expect(await listIds('')).to.deep.equal([4, 3, 2, 1, 0]);
    expect(await listIds('sortBy=created_at&sortDirection=asc')).to.deep.equal([0, 1, 2, 3, 4]);
    const byAmount = await listIds('sortBy=amount&sortDirection=asc');
    expect(byAmount.slice(0, 2)).to.deep.equal([4, 0]);
    expect(byAmount[4]).to.equal(1);
    const tied = byAmount.slice(2, 4).map((i) => ids[i]!);
    expect(tied).to.deep.equal([...tied].sort());
    for (const bad of ['sortBy=id;drop%20table%20payments', 'sortBy=tx_hash', 'sortDirection=up']) {
      const res = await list(bad);
      expect(res.status, bad).to.equal(400);
    }
  });

  it('pages with limit and offset and keeps the total', async () => {
    const res = await list('limit=2&offset=2&sortBy=created_at&sortDirection=asc');
    expect(res.body.data).to.include({ total: 5, limit: 2, offset: 2 });
    expect(res.body.data.payments.map((p: { id: string }) => ids.indexOf(p.id))).to.deep.equal([2, 3]);
    expect((await list('offset=10')).body.data.payments).to.have.length(0);
  });

  it('caps limit at 200 for API keys and 500 for the dashboard', async () => {
    expect((await list('limit=200')).status).to.equal(200);
    const tooMany = await list('limit=201');
    expect(tooMany.status).to.equal(400);
    expect(paths(tooMany)).to.deep.equal(['limit']);
    expect(paths(await list('limit=0'))).to.deep.equal(['limit']);
    expect(paths(await list('offset=-1'))).to.deep.equal(['offset']);
    expect((await list('limit=500', shop, 'user')).status).to.equal(200);
    expect((await list('limit=501', shop, 'user')).status).to.equal(400);
  });

  it('filters by status (pending includes cross-chain steps), currency, dates and since', async () => {
    expect((await listIds('status=pending')).sort()).to.deep.equal([0, 2, 4]);
    expect(await listIds('status=completed')).to.deep.equal([1]);
    expect(await listIds('status=failed')).to.deep.equal([3]);
    expect(paths(await list('status=pending_attestation'))).to.deep.equal(['status']);
    expect(await listIds('currency=EURC')).to.deep.equal([2]);
    expect(paths(await list('currency=DAI'))).to.deep.equal(['currency']);
    expect(await listIds('startDate=2025-01-11&endDate=2025-01-11')).to.deep.equal([2, 1]);
    expect(await listIds('startDate=2025-01-11T12:00:00Z&endDate=2025-01-12T08:00:00Z')).to.deep.equal([
      3, 2,
    ]);
    expect(await listIds(`since=${encodeURIComponent(fixtures[2]!.day)}`)).to.deep.equal([4, 3]);
    expect(paths(await list('startDate=yesterday'))).to.deep.equal(['startDate']);
    expect(paths(await list('since=2025-01-01'))).to.deep.equal(['since']);
  });

  it('searches tx_hash, from_address, customer_email and reference case-insensitively, wildcards literal', async () => {
    expect((await listIds('search=alice')).sort()).to.deep.equal([0, 4]);
    expect((await listIds('search=INV-7')).sort()).to.deep.equal([2, 4]);
    expect(await listIds(`search=${encodeURIComponent('_1%')}`)).to.deep.equal([0]);
    const row = await h.db('payments').where({ id: ids[1] }).first();
    expect(
      await listIds(`search=${row.tx_hash.slice(0, 20).toUpperCase().replace('0X', '0x')}`),
    ).to.deep.equal([1]);
    expect(await listIds(`search=${row.from_address.slice(2, 14)}`)).to.deep.equal([1]);
    const short = await list('search=ab');
    expect(short.status).to.equal(400);
    expect(paths(short)).to.deep.equal(['search']);
  });

  it("never shows another merchant's payments", async () => {
    const res = await list('', other);
    expect(res.body.data.total).to.equal(1);
    expect(res.body.data.payments.map((p: { id: string }) => p.id)).to.not.include.members(ids);
    for (const path of [`/payments/api/${ids[0]}`, `/payments/${ids[0]}`]) {
      const caller = path.includes('/api/') ? 'api_key' : 'user';
      const r = await h.call('GET', path, { ...actingAs(other), caller });
      expect(r.status, path).to.equal(404);
      expect(r.body).to.deep.equal({ success: false, error: 'Payment not found', details: [] });
    }
  });

  it('returns the detail views with exactly their fields', async () => {
    const api = await h.call('GET', `/payments/api/${ids[3]}`, actingAs(shop));
    expect(api.status).to.equal(200);
    expect(keysOf(api.body.data)).to.deep.equal(keysOf(PaymentDetail.shape));
    expect(api.body.data).to.include({
      id: ids[3],
      status: 'failed',
      failure_reason: 'reverted',
      expected_amount: '20.000000',
      destination_chain: null,
      bridge_provider: null,
    });
    const dash = await h.call('GET', `/payments/${ids[3]}`, { ...actingAs(shop), caller: 'user' });
    expect(dash.status).to.equal(200);
    expect(keysOf(dash.body.data)).to.deep.equal(keysOf(MerchantPaymentDetail.shape));
    expect(dash.body.data).to.include({
      source_chain_id: 31337,
      checkout_session_id: null,
      completed_at: null,
    });
    expect((await h.call('GET', `/payments/api/${randomUUID()}`, actingAs(shop))).status).to.equal(404);
    expect((await h.call('GET', '/payments/api/not-a-uuid', actingAs(shop))).status).to.equal(400);
  });

  it('enforces the caller kind of each route', async () => {
    expect(
      (await h.call('GET', '/payments/api/list', { ...actingAs(shop), caller: 'user' })).status,
    ).to.equal(403);
    expect((await h.call('GET', '/payments/api/list', { caller: 'public' })).status).to.equal(401);
    expect((await h.call('GET', '/payments', { ...actingAs(shop), caller: 'api_key' })).status).to.equal(403);
    expect(
      (await h.call('GET', `/payments/${ids[0]}`, { ...actingAs(shop), caller: 'api_key' })).status,
    ).to.equal(403);
    expect(
      (await h.call('GET', `/payments/api/${ids[0]}`, { ...actingAs(shop), caller: 'user' })).status,
    ).to.equal(403);
    expect((await h.call('GET', '/payments', { ...actingAs(shop), caller: 'user' })).status).to.equal(200);
    // public routes accept any caller
    expect(
      (await h.call('GET', `/payments/${ids[0]}/status`, { ...actingAs(shop), caller: 'user' })).status,
    ).to.equal(200);
  });
});
