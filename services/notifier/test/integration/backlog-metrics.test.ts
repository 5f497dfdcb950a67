import { expect } from 'chai';
import { metricValue, scrapeMetrics, waitFor } from '@stablepay/platform/testing';
import { BACKLOG_TOP_ENDPOINTS } from '../../src/metrics.js';
import { paymentData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

const API = '/merchant-webhooks/api';

/** The `endpoint` label of every series of one metric in a scrape. */
const endpointsIn = (text: string, name: string): string[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`))
    .map((line) => /endpoint="([^"]+)"/.exec(line)![1]!);

describe('webhook backlog and disabled endpoints at /metrics (PostgreSQL + RabbitMQ)', function () {
  this.timeout(60_000);
  let h: Harness;
  let rx: Receiver;

  before(async () => {
    rx = await Receiver.start();
    // Requests that the receiver holds stay in flight (and due) until the test answers them.
    h = await startHarness({ env: { WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_LEASE_MS: '25000' } });
  });
  after(async () => {
    rx?.release();
    await h?.close();
    await rx?.close();
  });

  const scrape = () => scrapeMetrics(h.url);

  it('reports due attempts and their age per endpoint, for the largest backlogs only', async () => {
    const crowded = await h.merchant();
    const busy = await h.merchant();
    const paths = Array.from({ length: BACKLOG_TOP_ENDPOINTS }, (_, i) => `/held/${i}`);
    for (const p of [...paths, '/held/busy']) rx.on(p, () => 'hang');
    for (const p of paths) await h.endpoint(crowded, rx.url(p), ['payment.completed']);
    const { id: busyId } = await h.endpoint(busy, rx.url('/held/busy'), ['payment.completed']);

    for (let i = 0; i < 3; i++) await h.publish('payment.completed', paymentData(busy));
    await h.publish('payment.completed', paymentData(crowded));
    const total = BACKLOG_TOP_ENDPOINTS + 3;
    await rx.waitForRequests('/held/busy', 3);
    const held = await waitFor(async () => {
      const text = await scrape();
      return metricValue(text, 'webhook_backlog_attempts') === total && text;
    }, 'every held attempt counted');

    expect(metricValue(held, 'webhook_endpoint_backlog_attempts', { endpoint: busyId })).to.equal(3);
    const named = endpointsIn(held, 'webhook_endpoint_backlog_attempts');
    expect(named).to.have.length(BACKLOG_TOP_ENDPOINTS).and.include(busyId);
    expect(metricValue(held, 'webhook_endpoint_backlog_attempts')).to.equal(total - 1);
    expect(endpointsIn(held, 'webhook_endpoint_backlog_oldest_seconds')).to.have.members(named);
    const oldest = metricValue(held, 'webhook_backlog_oldest_seconds');
    expect(oldest).to.be.above(0).and.below(60);
    // The age grows while the attempts wait.
    await new Promise((r) => setTimeout(r, 1_100));
    expect(metricValue(await scrape(), 'webhook_backlog_oldest_seconds')).to.be.at.least(oldest + 1);

    for (const p of [...paths, '/held/busy']) rx.on(p, () => ({ status: 200 }));
    rx.release();
    const drained = await waitFor(async () => {
      const text = await scrape();
      return metricValue(text, 'webhook_backlog_attempts') === 0 && text;
    }, 'the backlog drained');
    expect(metricValue(drained, 'webhook_backlog_oldest_seconds')).to.equal(0);
    expect(endpointsIn(drained, 'webhook_endpoint_backlog_attempts')).to.be.empty;
    expect(endpointsIn(drained, 'webhook_endpoint_backlog_oldest_seconds')).to.be.empty;
  });

  it('counts the endpoints disabled now, by cause', async () => {
    const before = await scrape();
    const byCause = (text: string, cause: string) =>
      metricValue(text, 'webhook_disabled_endpoints', { cause });
    expect(byCause(before, 'failures')).to.equal(0);
    expect(byCause(before, 'merchant')).to.equal(0);

    const merchantId = await h.merchant();
    const paused = await h.endpoint(merchantId, rx.url('/paused'), ['payment.completed']);
    const off = await h.call('PUT', `${API}/${paused.id}`, { merchantId, body: { is_active: false } });
    expect(off.status).to.equal(200);
    rx.on('/broken', () => ({ status: 500 }));
    const broken = await h.endpoint(merchantId, rx.url('/broken'), ['payment.completed']);
    for (let i = 0; i < 10; i++) await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(
      async () => !(await h.db('webhook_endpoints').where({ id: broken.id }).first()).is_active,
      20_000,
      'the failing endpoint disabled',
    );
    // A scrape whose read fails leaves the series out (and the failure in the log): the next one
    // reports them, so the test reads until a scrape carries them.
    const after = await waitFor(async () => {
      const text = await scrape();
      return text.includes('webhook_disabled_endpoints{') && text;
    }, 'a scrape with the disabled endpoints');
    expect(byCause(after, 'failures')).to.equal(1);
    expect(byCause(after, 'merchant')).to.equal(1);
    expect(metricValue(after, 'webhook_endpoints_disabled_total')).to.equal(1);

    const back = await h.call('PUT', `${API}/${broken.id}`, { merchantId, body: { is_active: true } });
    expect(back.status).to.equal(200);
    expect(byCause(await scrape(), 'failures')).to.equal(0);
  });
});
