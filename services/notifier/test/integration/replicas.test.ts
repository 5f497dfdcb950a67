import { expect } from 'chai';
import { metricValue, scrapeMetrics, waitFor } from '@stablepay/platform/testing';
import { paymentData } from '../support/fixtures.js';
import { harnessEnv, startHarness, type Harness } from '../support/harness.js';
import { startNotifierProcess, type NotifierProcess } from '../support/notifier-process.js';
import { Receiver } from '../support/receiver.js';

describe('two notifier replicas on one database and one queue', function () {
  this.timeout(30_000);
  let first: Harness;
  /** Its own process, on the first one's database and queues. */
  let second: NotifierProcess;
  let rx: Receiver;

  before(async () => {
    rx = await Receiver.start();
    // Small per-endpoint caps, so that both replicas get a share of every endpoint's work.
    const env = { WEBHOOK_ENDPOINT_CONCURRENCY: '2', WEBHOOK_CONCURRENCY: '4' };
    first = await startHarness({ env });
    second = await startNotifierProcess(
      await harnessEnv({
        ...env,
        DATABASE_URL: first.databaseUrl,
        AMQP_URL: first.amqpUrl,
        AMQP_PREFIX: first.prefix,
      }),
    );
  });
  after(async () => {
    await second?.stop();
    await first?.close();
    await rx?.close();
  });

  it('delivers each of 40 events exactly once to each of 3 endpoints', async () => {
    const merchantId = await first.merchant();
    const paths = ['/r1', '/r2', '/r3'];
    // A little latency, so that deliveries overlap and the replicas really compete.
    for (const p of paths) rx.on(p, () => ({ status: 200, delayMs: 20 }));
    const endpoints = await Promise.all(
      paths.map((p) => first.endpoint(merchantId, rx.url(p), ['payment.completed'])),
    );
    const ids: string[] = [];
    // Every other event is delivered twice by the broker.
    for (let i = 0; i < 40; i++) {
      ids.push(
        (await first.publish('payment.completed', paymentData(merchantId), { times: i % 2 === 0 ? 2 : 1 }))
          .id,
      );
    }
    await waitFor(
      async () =>
        (await first.db('webhook_deliveries').where({ merchant_id: merchantId, status: 'succeeded' }))
          .length === 120,
      20_000,
      '120 deliveries',
    );
    // A marker published after them all: once it has arrived, any duplicate would have too.
    const { id: marker } = await first.publish('payment.completed', paymentData(merchantId));
    await waitFor(() => paths.every((p) => rx.byEvent(marker, p).length === 1));
    for (const p of paths) {
      for (const id of ids) expect(rx.byEvent(id, p), `${p} ${id}`).to.have.length(1);
    }
    const endpointIds = endpoints.map((e) => e.id);
    const attemptsOf = () => first.db('webhook_attempts').whereIn('endpoint_id', endpointIds);
    await waitFor(async () => (await attemptsOf()).every((a) => a.status === 'succeeded'));
    const attempts = await attemptsOf();
    expect(attempts).to.have.length(123);
    expect(attempts.every((a) => a.attempt === 1)).to.equal(true);
    const shares = await Promise.all(
      [first, second].map(async (h) => metricValue(await scrapeMetrics(h.url), 'webhook_attempts_total')),
    );
    expect(shares[0]! + shares[1]!).to.equal(123);
    console.log(`      (attempts per replica: ${shares.join(' + ')})`);
  });
});
