import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { CreateWebhookResponse } from '@stablepay/contracts';
import { REQUEST_KEY_REUSED } from '@stablepay/platform';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

const CREATE = '/merchant-webhooks/api/create';

/**
 * The gateway forgets an Idempotency-Key whose answer it never got (a timeout, a replica killed
 * after commit) and forwards the retry: the notifier itself answers it with the endpoint it made.
 */
describe('creating a webhook endpoint with a forwarded Idempotency-Key (PostgreSQL)', function () {
  this.timeout(30_000);
  let h: Harness;
  let rx: Receiver;

  before(async () => {
    rx = await Receiver.start();
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
    await rx?.close();
  });

  const endpointsOf = async (merchantId: string): Promise<number> => {
    const [row] = await h.db('webhook_endpoints').where({ merchant_id: merchantId }).count('* as n');
    return Number(row!.n);
  };

  it('makes one endpoint per key, however often and however concurrently the request comes', async () => {
    const merchantId = randomUUID();
    const body = { url: rx.url('/keyed'), events: ['payment.completed'], description: 'orders' };
    const headers = { 'idempotency-key': `webhook-${randomUUID()}` };
    const first = await Promise.all(
      Array.from({ length: 4 }, () => h.call('POST', CREATE, { merchantId, body, headers })),
    );
    // The same body with its keys in another order is the same request.
    const reordered = { description: 'orders', events: ['payment.completed'], url: rx.url('/keyed') };
    const later = await h.call('POST', CREATE, { merchantId, body: reordered, headers });
    const answers = [...first, later];
    for (const r of answers) expect(r.status, JSON.stringify(r.body)).to.equal(201);
    const created = answers.map((r) => CreateWebhookResponse.parse(r.body).data);
    expect(new Set(created.map((e) => e.id)).size).to.equal(1);
    // The secret that signs deliveries is the one every answer gave.
    expect(new Set(created.map((e) => e.secret)).size).to.equal(1);
    expect(await endpointsOf(merchantId)).to.equal(1);

    const unkeyed = await h.call('POST', CREATE, { merchantId, body });
    expect(unkeyed.status).to.equal(201);
    expect(unkeyed.body.data.id).not.to.equal(created[0]!.id);
    expect(await endpointsOf(merchantId)).to.equal(2);
  });

  it('refuses the key with another body (422, as the gateway does) and creates nothing', async () => {
    const merchantId = randomUUID();
    const headers = { 'idempotency-key': 'reused-key' };
    const made = await h.call('POST', CREATE, {
      merchantId,
      body: { url: rx.url('/a'), events: ['payment.completed'] },
      headers,
    });
    expect(made.status).to.equal(201);
    const other = await h.call('POST', CREATE, {
      merchantId,
      body: { url: rx.url('/b'), events: ['payment.completed'] },
      headers,
    });
    expect(other.status).to.equal(422);
    expect(other.body).to.deep.equal({ success: false, error: REQUEST_KEY_REUSED, details: [] });
    expect(await endpointsOf(merchantId)).to.equal(1);
  });

  it("keeps each merchant's keys apart: the same key makes one endpoint for each", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const body = { url: rx.url('/shared-key'), events: ['refund.created'] };
    const headers = { 'idempotency-key': 'order-42' };
    const forA = await h.call('POST', CREATE, { merchantId: a, body, headers });
    const forB = await h.call('POST', CREATE, { merchantId: b, body, headers });
    expect([forA.status, forB.status]).to.deep.equal([201, 201]);
    expect(forA.body.data.id).not.to.equal(forB.body.data.id);
    expect(forA.body.data.secret).not.to.equal(forB.body.data.secret);
    expect([await endpointsOf(a), await endpointsOf(b)]).to.deep.equal([1, 1]);
    // B's retry is answered with B's endpoint, never A's.
    const again = await h.call('POST', CREATE, { merchantId: b, body, headers });
    expect(again.body.data.id).to.equal(forB.body.data.id);
  });
});
