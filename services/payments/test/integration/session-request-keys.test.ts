import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { CreateCheckoutSessionResponse } from '@stablepay/contracts';
import { REQUEST_KEY_REUSED } from '@stablepay/platform';
import { actingAs, startHarness, type Harness, type TestMerchant } from '../support/harness.js';

/**
 * The gateway forgets an Idempotency-Key whose answer it never got (a timeout, a replica killed
 * after commit) and forwards the retry: the payments service answers it with the session it opened.
 */
describe('opening a checkout session with a forwarded Idempotency-Key (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;
  let other: TestMerchant;

  before(async () => {
    h = await startHarness();
    shop = await h.seedMerchant({ wallet: true });
    other = await h.seedMerchant({ wallet: true });
  });
  after(async () => h?.close());

  const open = (merchant: TestMerchant, body: Record<string, unknown>, key?: string) =>
    h.call('POST', '/checkout/sessions', {
      ...actingAs(merchant),
      body,
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });
  const sessionsOf = async (merchant: TestMerchant): Promise<number> => {
    const [row] = await h.db('checkout_sessions').where({ merchant_id: merchant.merchantId }).count('* as n');
    return Number(row!.n);
  };

  it('opens one session per key, however often and however concurrently the request comes', async () => {
    const before = await sessionsOf(shop);
    const key = `order-${randomUUID()}`;
    const body = { amount: 25.5, currency: 'USDC', return_url: 'https://shop.example/done', expires_in: 600 };
    const first = await Promise.all(Array.from({ length: 4 }, () => open(shop, body, key)));
    const later = await open(shop, body, key);
    const answers = [...first, later];
    for (const r of answers) expect(r.status, JSON.stringify(r.body)).to.equal(201);
    const made = answers.map((r) => CreateCheckoutSessionResponse.parse(r.body).data);
    // The same id, link and expiry: the retry is told exactly what the first request was.
    expect(new Set(made.map((s) => JSON.stringify(s))).size).to.equal(1);
    expect(await sessionsOf(shop)).to.equal(before + 1);
    // The same request through the alias path is the same request.
    const alias = await h.call('POST', '/public/checkout/sessions', {
      ...actingAs(shop),
      body,
      headers: { 'idempotency-key': key },
    });
    expect(alias.body.data).to.deep.equal(made[0]);
    // Without a key every request is a new session.
    expect((await open(shop, body)).body.data.id).not.to.equal(made[0]!.id);
    expect(await sessionsOf(shop)).to.equal(before + 2);
  });

  it('refuses the key with another body (422, as the gateway does) and opens nothing', async () => {
    const key = `order-${randomUUID()}`;
    const made = await open(shop, { amount: 10, return_url: 'https://shop.example/done' }, key);
    expect(made.status).to.equal(201);
    const before = await sessionsOf(shop);
    const changed = await open(shop, { amount: 11, return_url: 'https://shop.example/done' }, key);
    expect(changed.status).to.equal(422);
    expect(changed.body).to.deep.equal({ success: false, error: REQUEST_KEY_REUSED, details: [] });
    expect(await sessionsOf(shop)).to.equal(before);
  });

  it("keeps each merchant's keys apart: the same key opens one session for each", async () => {
    const key = 'order-1001';
    const body = { amount: 5, return_url: 'https://shop.example/done' };
    const mine = await open(shop, body, key);
    const theirs = await open(other, body, key);
    expect([mine.status, theirs.status]).to.deep.equal([201, 201]);
    expect(mine.body.data.id).not.to.equal(theirs.body.data.id);
    const rows = await h.db('checkout_sessions').whereIn('id', [mine.body.data.id, theirs.body.data.id]);
    expect(rows.map((r) => r.merchant_id).sort()).to.deep.equal([shop.merchantId, other.merchantId].sort());
    // Each merchant's retry is answered with its own session.
    expect((await open(other, body, key)).body.data.id).to.equal(theirs.body.data.id);
    expect((await open(shop, body, key)).body.data.id).to.equal(mine.body.data.id);
  });
});
