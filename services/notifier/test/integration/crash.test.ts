import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import { paymentData } from '../support/fixtures.js';
import { harnessEnv, startHarness, type Harness } from '../support/harness.js';
import { startNotifierProcess, type NotifierProcess } from '../support/notifier-process.js';
import { Receiver } from '../support/receiver.js';

describe('a notifier killed in the middle of a delivery loses nothing', function () {
  this.timeout(45_000);
  /** API role only: the test's way in, on the database and queues both processes share. */
  let h: Harness;
  let rx: Receiver;
  let victim: NotifierProcess | undefined;
  let successor: NotifierProcess | undefined;

  before(async () => {
    rx = await Receiver.start();
  });
  after(async () => {
    await victim?.kill();
    await successor?.stop();
    await h?.close();
    await rx?.close();
  });

  it('lets the lease run out, and a new instance delivers the event again (same event id)', async () => {
    const timings = { WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_LEASE_MS: '3000', WEBHOOK_RETRY_SCHEDULE: '0' };
    h = await startHarness({ role: 'api', env: timings });
    const env = await harnessEnv({
      ...timings,
      DATABASE_URL: h.databaseUrl,
      AMQP_URL: h.amqpUrl,
      AMQP_PREFIX: h.prefix,
    });
    victim = await startNotifierProcess(env);
    const merchantId = randomUUID();
    const created = await h.call('POST', '/merchant-webhooks/api/create', {
      merchantId,
      body: { url: rx.url('/held'), events: ['payment.completed'] },
    });
    expect(created.status).to.equal(201);
    const endpointId = created.body.data.id as string;

    // The receiver holds the first request open: the notifier is killed while it waits for the answer.
    rx.on('/held', (_req, n) => (n === 1 ? 'hang' : { status: 200, body: 'got it' }));
    const event = await h.publish('payment.completed', paymentData(merchantId));
    await rx.waitForRequests('/held', 1);
    const killedAt = Date.now();
    await victim.kill();
    victim = undefined;

    successor = await startNotifierProcess(env);
    const [, second] = await rx.waitForRequests('/held', 2, 15_000);
    expect(second!.at - killedAt).to.be.at.least(1_000); // not before the lease ran out
    expect(rx.byEvent(event.id)).to.have.length(2);
    await waitFor(async () => (await h.deliveryStatus(event.id, endpointId)) === 'succeeded');
    const attempts = await h.db('webhook_attempts').where({ endpoint_id: endpointId });
    expect(attempts).to.have.length(1);
    expect(attempts[0]).to.include({
      attempt: 1,
      status: 'succeeded',
      response_status: 200,
      response_body_excerpt: 'got it',
    });
  });
});
