import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import { paymentData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

describe('a slow endpoint never delays the others', function () {
  this.timeout(30_000);
  let h: Harness;
  let rx: Receiver;

  before(async () => {
    rx = await Receiver.start();
    h = await startHarness({
      env: {
        WEBHOOK_TIMEOUT_MS: '4000',
        WEBHOOK_CONCURRENCY: '8',
        WEBHOOK_ENDPOINT_CONCURRENCY: '2',
        WEBHOOK_RETRY_SCHEDULE: '0',
      },
    });
  });
  after(async () => {
    rx?.release();
    await h?.close();
    await rx?.close();
  });

  it('delivers 20 events to a fast endpoint while another one hangs on the same events', async () => {
    const merchantId = await h.merchant();
    rx.on('/slow', () => 'hang');
    rx.on('/fast', () => ({ status: 200 }));
    const slow = await h.endpoint(merchantId, rx.url('/slow'), ['payment.completed']);
    const fast = await h.endpoint(merchantId, rx.url('/fast'), ['payment.completed']);
    const started = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await h.publish('payment.completed', paymentData(merchantId))).id);
    await rx.waitForRequests('/fast', 20, 3_000);
    const elapsed = Date.now() - started;
    // All of them long before the slow endpoint's first attempts time out (4 s)...
    expect(elapsed).to.be.below(3_000);
    // ...which hold at most their per-endpoint share of the pool meanwhile.
    expect(rx.at('/slow')).to.have.length(2);
    for (const id of ids) expect(await h.deliveryStatus(id, fast.id)).to.be.oneOf(['succeeded', 'pending']);
    await waitFor(async () => {
      const statuses = await Promise.all(ids.map((id) => h.deliveryStatus(id, fast.id)));
      return statuses.every((s) => s === 'succeeded');
    });
    rx.on('/slow', () => ({ status: 200 }));
    rx.release();
    await waitFor(async () => {
      const statuses = await Promise.all(ids.map((id) => h.deliveryStatus(id, slow.id)));
      return statuses.every((s) => s === 'succeeded');
    }, 15_000);
    console.log(`      (20 fast deliveries in ${elapsed} ms while the slow endpoint hung)`);
  });
});
