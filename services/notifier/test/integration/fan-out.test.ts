import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import { paymentData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

/**
 * A new event's first attempts go straight from the event handler to the delivery pool when it
 * has room, and wait in the database for a claim when it has not: with a pool of 3 (room for 6)
 * and 10 endpoints, every event takes both ways.
 */
describe('events that fan out to more endpoints than the pool holds', function () {
  this.timeout(30_000);
  let h: Harness;
  let rx: Receiver;

  before(async () => {
    rx = await Receiver.start();
    h = await startHarness({
      env: { WEBHOOK_CONCURRENCY: '3', WEBHOOK_ENDPOINT_CONCURRENCY: '1', WEBHOOK_POLL_MS: '5000' },
    });
  });
  after(async () => {
    await h?.close();
    await rx?.close();
  });

  it('delivers each event once to each endpoint, the ones handed over and the ones claimed', async () => {
    const merchantId = await h.merchant();
    const paths = Array.from({ length: 10 }, (_, i) => `/fan${i}`);
    for (const p of paths) rx.on(p, () => ({ status: 200, delayMs: 5 }));
    const endpoints = await Promise.all(
      paths.map((p) => h.endpoint(merchantId, rx.url(p), ['payment.completed'])),
    );
    const ids: string[] = [];
    // Every other event is delivered twice by the broker.
    for (let i = 0; i < 12; i++) {
      const event = await h.publish('payment.completed', paymentData(merchantId), { times: i % 2 ? 1 : 2 });
      ids.push(event.id);
    }
    // Far sooner than the 5 s poll: whatever waited for a claim was claimed as slots freed.
    await waitFor(
      async () =>
        (await h.db('webhook_deliveries').where({ merchant_id: merchantId, status: 'succeeded' })).length ===
        120,
      4_000,
      '120 deliveries',
    );
    for (const p of paths) for (const id of ids) expect(rx.byEvent(id, p), `${p} ${id}`).to.have.length(1);
    const attempts = await h.db('webhook_attempts').whereIn(
      'endpoint_id',
      endpoints.map((e) => e.id),
    );
    expect(attempts).to.have.length(120);
    for (const a of attempts) {
      expect(a).to.include({ attempt: 1, status: 'succeeded', response_status: 200, lease_token: null });
      expect(a.started_at).to.be.instanceOf(Date);
    }
  });
});
