import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import {
  DAY_MS,
  createRefund,
  newMerchant,
  startHarness,
  waitForMessage,
  type Harness,
  type TestMerchant,
} from '../support/harness.js';

const CREATED_FIELDS = [
  'amount',
  'blockchain',
  'currency',
  'destination_address',
  'id',
  'payment_id',
  'reason',
  'status',
];

describe('POST /refunds/api/create (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;

  before(async () => {
    h = await startHarness();
    shop = newMerchant();
  });
  after(async () => h?.close());

  const create = (merchant: TestMerchant, body: Record<string, unknown>) =>
    h.call('POST', '/refunds/api/create', { ...merchant, body });

  it('refunds everything still refundable by default, with exactly the spec fields, and publishes refund.created', async () => {
    const observer = await h.observe(['refund.created']);
    try {
      const p = await h.seedPayment(shop, { amount: '25.500000' });
      const res = await create(shop, { paymentId: p.id, reason: 'duplicate' });
      expect(res.status).to.equal(201);
      expect(res.body.success).to.equal(true);
      expect(Object.keys(res.body.data).sort()).to.deep.equal(CREATED_FIELDS);
      expect(res.body.data).to.deep.include({
        payment_id: p.id,
        amount: '25.500000',
        currency: 'USDC',
        status: 'pending',
        destination_address: p.fromAddress,
        blockchain: 'BASE',
        reason: 'duplicate',
      });
      const event = await waitForMessage(observer, res.body.data.id);
      expect(event).to.include({ type: 'refund.created', producer: 'refunds', merchantId: shop.merchantId });
      expect(event.data).to.deep.include({
        refund_id: res.body.data.id,
        merchant_id: shop.merchantId,
        payment_id: p.id,
        amount: '25.500000',
        currency: 'USDC',
        status: 'pending',
        destination_address: p.fromAddress,
        blockchain: 'BASE',
        reason: 'duplicate',
        tx_hash: null,
      });
      expect(event.data).not.to.have.property('failure_reason');
      // Nothing is left to refund now.
      const again = await create(shop, { paymentId: p.id, reason: 'other' });
      expect(again.status).to.equal(422);
      expect(again.body.details[0]).to.include({ path: 'paymentId', code: 'payment_fully_refunded' });
    } finally {
      await observer.close();
    }
  });

  it('refunds partially, then defaults to what remains', async () => {
    const p = await h.seedPayment(shop, { amount: '10', currency: 'EURC' });
    const first = await create(shop, {
      paymentId: p.id,
      amount: '2.5',
      reason: 'requested_by_customer',
      note: 'half',
    });
    expect(first.status).to.equal(201);
    expect(first.body.data).to.include({ amount: '2.500000', currency: 'EURC' });
    const rest = await create(shop, { paymentId: p.id, reason: 'other' });
    expect(rest.status).to.equal(201);
    expect(rest.body.data.amount).to.equal('7.500000');
  });

  it('accepts six decimals and refuses a seventh', async () => {
    const p = await h.seedPayment(shop, { amount: '1' });
    const tiny = await create(shop, { paymentId: p.id, amount: '0.000001', reason: 'other' });
    expect(tiny.status).to.equal(201);
    expect(tiny.body.data.amount).to.equal('0.000001');
    const seventh = await create(shop, { paymentId: p.id, amount: '0.0000001', reason: 'other' });
    expect(seventh.status).to.equal(400);
    expect(seventh.body.details).to.deep.include({
      path: 'amount',
      message: 'Amount must have at most 6 decimal places',
      code: 'custom',
    });
  });

  it('names every invalid field', async () => {
    const res = await create(shop, {
      paymentId: 'nope',
      amount: '-1',
      reason: 'changed_mind',
      note: 'x'.repeat(501),
    });
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ success: false, error: 'Body validation failed' });
    const paths = res.body.details.map((d: { path: string }) => d.path).sort();
    expect(paths).to.deep.equal(['amount', 'note', 'paymentId', 'reason']);
    const missing = await create(shop, {});
    expect(missing.status).to.equal(400);
    expect(missing.body.details.map((d: { path: string }) => d.path).sort()).to.deep.equal([
      'paymentId',
      'reason',
    ]);
    const p = await h.seedPayment(shop);
    for (const amount of ['0', '0.000000', 5, '1e2', ' 1', 'abc']) {
      const bad = await create(shop, { paymentId: p.id, amount, reason: 'other' });
      expect(bad.status, `amount ${JSON.stringify(amount)}`).to.equal(400);
      expect(bad.body.details[0].path).to.equal('amount');
    }
    const nul = await create(shop, { paymentId: p.id, reason: 'other', note: 'a\u0000b' });
    expect(nul.status).to.equal(400);
    expect(nul.body.details[0].path).to.equal('note');
    const longest = await create(shop, {
      paymentId: p.id,
      amount: '1',
      reason: 'other',
      note: 'n'.repeat(500),
    });
    expect(longest.status).to.equal(201);
  });

  it('refuses more than the refundable remainder with 422 naming the field and the ceiling', async () => {
    const p = await h.seedPayment(shop, { amount: '10' });
    expect((await create(shop, { paymentId: p.id, amount: '10.000001', reason: 'other' })).status).to.equal(
      422,
    );
    await createRefund(h, p, { amount: '6' });
    const over = await create(shop, { paymentId: p.id, amount: '4.000001', reason: 'other' });
    expect(over.status).to.equal(422);
    expect(over.body).to.include({
      success: false,
      error: 'Refund amount exceeds the refundable amount of the payment',
    });
    expect(over.body.details).to.deep.equal([
      {
        path: 'amount',
        message: 'At most 4.000000 USDC of this payment can still be refunded',
        code: 'amount_exceeds_refundable',
      },
    ]);
    expect((await create(shop, { paymentId: p.id, amount: '4', reason: 'other' })).status).to.equal(201);
  });

  it('lets exactly the allowed share of 21 concurrent partial refunds through', async () => {
    const p = await h.seedPayment(shop, { amount: '100' });
    const results = await Promise.all(
      Array.from({ length: 21 }, () =>
        create(shop, { paymentId: p.id, amount: '10', reason: 'requested_by_customer' }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).to.have.length(10);
    expect(statuses.filter((s) => s === 422)).to.have.length(11);
    const [row] = await h.db('refunds').where({ payment_id: p.id }).sum('amount as total').count('* as n');
    expect(row).to.deep.equal({ total: '100.000000', n: '10' });
    const events = await h
      .db('outbox')
      .where({ type: 'refund.created' })
      .whereRaw("envelope->'data'->>'payment_id' = ?", [p.id]);
    expect(events).to.have.length(10);
  });

  it('makes one refund per Idempotency-Key, however often the request comes, at once or later', async () => {
    const p = await h.seedPayment(shop, { amount: '50' });
    const body = { paymentId: p.id, amount: '5', reason: 'requested_by_customer' };
    const headers = { 'idempotency-key': `refund-${p.id}` };
    // Retries of a request whose answer was lost (the gateway forgets the key after a 5xx), some at once.
    const first = await Promise.all(
      Array.from({ length: 4 }, () => h.call('POST', '/refunds/api/create', { ...shop, body, headers })),
    );
    const later = await h.call('POST', '/refunds/api/create', { ...shop, body, headers });
    for (const r of [...first, later]) expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(new Set([...first, later].map((r) => r.body.data.id)).size).to.equal(1);
    const [row] = await h.db('refunds').where({ payment_id: p.id }).count('* as n');
    expect(row).to.deep.equal({ n: '1' });
    const events = await h
      .db('outbox')
      .where({ type: 'refund.created' })
      .whereRaw("envelope->'data'->>'payment_id' = ?", [p.id]);
    expect(events).to.have.length(1);
    // Another key is another refund; another merchant's same key is theirs.
    const other = await h.call('POST', '/refunds/api/create', {
      ...shop,
      body,
      headers: { 'idempotency-key': `refund-${p.id}-2` },
    });
    expect(other.status).to.equal(201);
    expect(other.body.data.id).not.to.equal(later.body.data.id);
  });

  it('refuses an Idempotency-Key reused with another body (422, as the gateway does) and stores nothing', async () => {
    const p = await h.seedPayment(shop, { amount: '50' });
    const q = await h.seedPayment(shop, { amount: '50' });
    const headers = { 'idempotency-key': `refund-reused-${p.id}` };
    const body = { paymentId: p.id, amount: '5', reason: 'requested_by_customer' };
    const first = await h.call('POST', '/refunds/api/create', { ...shop, body, headers });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    // The same body with its keys in another order is the same request.
    const same = await h.call('POST', '/refunds/api/create', {
      ...shop,
      body: { reason: 'requested_by_customer', amount: '5', paymentId: p.id },
      headers,
    });
    expect(same.status).to.equal(201);
    expect(same.body.data.id).to.equal(first.body.data.id);
    for (const other of [
      { ...body, amount: '6' },
      { ...body, paymentId: q.id },
    ]) {
      const res = await h.call('POST', '/refunds/api/create', { ...shop, body: other, headers });
      expect(res.status).to.equal(422);
      expect(res.body).to.deep.equal({
        success: false,
        error: 'Idempotency-Key was already used with a different request body',
        details: [],
      });
    }
    const stored = await h.db('refunds').whereIn('payment_id', [p.id, q.id]).select('id');
    expect(stored.map((r) => r.id)).to.deep.equal([first.body.data.id]);
    const events = await h
      .db('outbox')
      .where({ type: 'refund.created' })
      .whereRaw("envelope->'data'->>'payment_id' in (?, ?)", [p.id, q.id]);
    expect(events).to.have.length(1);
    // A refund stored before fingerprints were kept answers its key whatever the body.
    await h.db('refunds').where({ id: first.body.data.id }).update({ request_fingerprint: null });
    const old = await h.call('POST', '/refunds/api/create', {
      ...shop,
      body: { ...body, amount: '6' },
      headers,
    });
    expect(old.status).to.equal(201);
    expect(old.body.data.id).to.equal(first.body.data.id);
  });

  it('refunds within 180 days of completion and not after', async () => {
    const recent = await h.seedPayment(shop, { completedAt: new Date(Date.now() - 179 * DAY_MS) });
    expect((await create(shop, { paymentId: recent.id, reason: 'other' })).status).to.equal(201);
    const old = await h.seedPayment(shop, { completedAt: new Date(Date.now() - 181 * DAY_MS) });
    const res = await create(shop, { paymentId: old.id, reason: 'other' });
    expect(res.status).to.equal(422);
    expect(res.body.error).to.equal('A payment can be refunded only within 180 days after it completed');
    expect(res.body.details[0]).to.include({ path: 'paymentId', code: 'refund_window_expired' });
    expect(await h.db('refunds').where({ payment_id: old.id })).to.have.length(0);
  });

  it("answers 404 for another merchant's payment and for an unknown one", async () => {
    const p = await h.seedPayment(shop);
    for (const paymentId of [p.id, randomUUID()]) {
      const res = await create(newMerchant(), { paymentId, reason: 'fraudulent' });
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ success: false, error: 'Payment not found', details: [] });
    }
    expect(await h.db('refunds').where({ payment_id: p.id })).to.have.length(0);
  });

  it('serves API-key callers only', async () => {
    const body = { paymentId: randomUUID(), reason: 'other' };
    expect((await h.call('POST', '/refunds/api/create', { anonymous: true, body })).status).to.equal(401);
    expect((await h.call('POST', '/refunds/api/create', { body })).status).to.equal(401);
    const asUser = await h.call('POST', '/refunds/api/create', { ...shop, caller: 'user', body });
    expect(asUser.status).to.equal(403);
  });
});
