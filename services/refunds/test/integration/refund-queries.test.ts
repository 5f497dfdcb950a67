import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import {
  createRefund,
  newMerchant,
  startHarness,
  type Harness,
  type SeededPayment,
  type TestMerchant,
} from '../support/harness.js';

const LIST_FIELDS = [
  'amount',
  'blockchain',
  'created_at',
  'currency',
  'destination_address',
  'id',
  'payment_id',
  'reason',
  'status',
  'tx_hash',
];
const DETAIL_FIELDS = [
  ...LIST_FIELDS,
  'completed_at',
  'failure_reason',
  'payment',
  'waiting_for_funds',
].sort();

describe('refund list and detail (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;
  let usdc: SeededPayment;
  let eurc: SeededPayment;
  /** oldest first */
  const ids: string[] = [];

  before(async () => {
    h = await startHarness();
    shop = newMerchant();
    usdc = await h.seedPayment(shop, { amount: '100' });
    eurc = await h.seedPayment(shop, { amount: '50', currency: 'EURC' });
    ids.push(await createRefund(h, usdc, { amount: '10', note: 'first' }));
    ids.push(await createRefund(h, usdc, { amount: '20' }));
    ids.push(await createRefund(h, eurc, { amount: '5' }));
    ids.push(await createRefund(h, usdc, { amount: '1.25' }));
    expect((await h.call('POST', `/refunds/api/${ids[1]}/cancel`, { ...shop })).status).to.equal(200);
    // Another merchant's refunds never show up.
    const other = newMerchant();
    await createRefund(h, await h.seedPayment(other));
  });
  after(async () => h?.close());

  const list = async (query = '') => {
    const res = await h.call('GET', `/refunds/api/list${query}`, { ...shop });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as {
      refunds: Array<Record<string, any>>;
      total: number;
      limit: number;
      offset: number;
    };
  };
  const idsOf = (page: { refunds: Array<Record<string, any>> }) => page.refunds.map((r) => r.id);

  it('lists the merchant refunds newest first with exactly the list fields', async () => {
    const page = await list();
    expect(Object.keys(page).sort()).to.deep.equal(['limit', 'offset', 'refunds', 'total']);
    expect(page).to.include({ total: 4, limit: 50, offset: 0 });
    expect(idsOf(page)).to.deep.equal([...ids].reverse());
    for (const r of page.refunds) expect(Object.keys(r).sort()).to.deep.equal(LIST_FIELDS);
    expect(page.refunds[0]).to.deep.include({
      id: ids[3],
      payment_id: usdc.id,
      amount: '1.250000',
      currency: 'USDC',
      status: 'pending',
      destination_address: usdc.fromAddress,
      blockchain: 'BASE',
      reason: 'requested_by_customer',
      tx_hash: null,
    });
    expect(Date.parse(page.refunds[0]!.created_at)).to.be.closeTo(Date.now(), 60_000);
  });

  it('filters by status and currency', async () => {
    expect(idsOf(await list('?status=cancelled'))).to.deep.equal([ids[1]]);
    expect((await list('?status=pending')).total).to.equal(3);
    expect((await list('?status=completed')).refunds).to.deep.equal([]);
    expect(idsOf(await list('?currency=EURC'))).to.deep.equal([ids[2]]);
    expect(idsOf(await list('?currency=USDC&status=pending'))).to.deep.equal([ids[3], ids[0]]);
  });

  it('searches payment id and destination address, case-insensitively and in part', async () => {
    expect(idsOf(await list(`?search=${eurc.id.toUpperCase()}`))).to.deep.equal([ids[2]]);
    expect((await list(`?search=${usdc.id.slice(0, 13)}`)).total).to.equal(3);
    expect(idsOf(await list(`?search=${eurc.fromAddress.slice(2).toUpperCase()}`))).to.deep.equal([ids[2]]);
    expect((await list('?search=%25')).total).to.equal(0);
    expect((await list(`?search=${randomUUID()}`)).total).to.equal(0);
  });

  it('pages with limit and offset', async () => {
    const page = await list('?limit=2&offset=1');
    expect(page).to.include({ total: 4, limit: 2, offset: 1 });
    expect(idsOf(page)).to.deep.equal([ids[2], ids[1]]);
    expect((await list('?limit=200&offset=4')).refunds).to.deep.equal([]);
    for (const q of ['?limit=0', '?limit=201', '?offset=-1', '?status=done', '?currency=BTC', '?search=']) {
      const res = await h.call('GET', `/refunds/api/list${q}`, { ...shop });
      expect(res.status, q).to.equal(400);
      expect(res.body.success).to.equal(false);
    }
  });

  it('shows the detail view with the note and the payment', async () => {
    const res = await h.call('GET', `/refunds/api/${ids[0]}`, { ...shop });
    expect(res.status).to.equal(200);
    const d = res.body.data;
    expect(Object.keys(d).sort()).to.deep.equal([...DETAIL_FIELDS, 'note'].sort());
    expect(d).to.deep.include({
      id: ids[0],
      payment_id: usdc.id,
      amount: '10.000000',
      status: 'pending',
      note: 'first',
      tx_hash: null,
      failure_reason: null,
      completed_at: null,
      waiting_for_funds: false,
    });
    expect(d.payment).to.deep.equal({
      id: usdc.id,
      amount: '100.000000',
      currency: 'USDC',
      status: 'completed',
      tx_hash: usdc.txHash,
      from_address: usdc.fromAddress,
      created_at: usdc.completedAt,
    });
    const noNote = await h.call('GET', `/refunds/api/${ids[2]}`, { ...shop });
    expect(Object.keys(noNote.body.data).sort()).to.deep.equal(DETAIL_FIELDS);
    expect(noNote.body.data.payment).to.include({ id: eurc.id, amount: '50.000000', currency: 'EURC' });
  });

  it("answers 404 for another merchant's refund, 400 for a malformed id", async () => {
    const other = await h.call('GET', `/refunds/api/${ids[0]}`, { ...newMerchant() });
    expect(other.status).to.equal(404);
    expect(other.body).to.deep.equal({ success: false, error: 'Refund not found', details: [] });
    expect((await h.call('GET', `/refunds/api/${randomUUID()}`, { ...shop })).status).to.equal(404);
    const bad = await h.call('GET', '/refunds/api/not-a-uuid', { ...shop });
    expect(bad.status).to.equal(400);
    expect(bad.body.details[0]).to.include({ path: 'id' });
    expect((await h.call('GET', '/refunds/api/list', { ...newMerchant() })).body.data.total).to.equal(0);
  });
});
