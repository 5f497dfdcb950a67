import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import type { Resolver } from '../../src/index.js';
import { paymentData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

const API = '/merchant-webhooks/api';

describe('SSRF protection with the production policy (ALLOW_INSECURE_WEBHOOKS=false)', function () {
  this.timeout(30_000);
  let h: Harness;
  let rx: Receiver;
  /** The test plays DNS: names map to whatever each test needs, at any moment. */
  const records = new Map<string, string[]>([
    ['hooks.merchant.test', ['93.184.216.34']],
    ['intranet.merchant.test', ['10.20.30.40']],
    ['half.merchant.test', ['93.184.216.34', '192.168.0.10']],
    ['metadata.merchant.test', ['169.254.169.254']],
    ['localhost', ['127.0.0.1']],
  ]);
  const resolve: Resolver = async (host) => {
    const list = records.get(host.toLowerCase());
    if (!list) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  before(async () => {
    rx = await Receiver.start();
    h = await startHarness({
      env: { ALLOW_INSECURE_WEBHOOKS: 'false', WEBHOOK_RETRY_SCHEDULE: '0' },
      resolve,
    });
  });
  after(async () => {
    await h?.close();
    await rx?.close();
  });

  it('refuses internal destinations on create and on update, naming the url field', async () => {
    const merchantId = await h.merchant();
    const refused = [
      'https://127.0.0.1/hook',
      'https://2130706433/hook',
      'https://0x7f.1/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::1]/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://localhost/hook',
      'https://intranet.merchant.test/hook',
      'https://half.merchant.test/hook',
      'https://metadata.merchant.test/hook',
      'http://hooks.merchant.test/hook',
      rx.url('/hook'),
    ];
    for (const url of refused) {
      const res = await h.call('POST', `${API}/create`, {
        merchantId,
        body: { url, events: ['payment.completed'] },
      });
      expect(res.status, url).to.equal(400);
      expect(res.body.details[0]).to.include({ path: 'url' });
      expect(res.body.details[0].code).to.be.oneOf(['blocked_address', 'insecure_url']);
    }
    const ok = await h.call('POST', `${API}/create`, {
      merchantId,
      body: { url: 'https://hooks.merchant.test/hook', events: ['payment.completed'] },
    });
    expect(ok.status).to.equal(201);
    const update = await h.call('PUT', `${API}/${ok.body.data.id}`, {
      merchantId,
      body: { url: 'https://intranet.merchant.test/hook' },
    });
    expect(update.status).to.equal(400);
    expect(update.body.details[0].path).to.equal('url');
  });

  it('checks again at connect time: a name that now resolves to loopback is never connected to', async () => {
    const merchantId = await h.merchant();
    const name = 'rebind.merchant.test';
    records.set(name, ['93.184.216.34']);
    const { id } = await h.endpoint(merchantId, rx.url('/rebound', name), ['payment.completed']);
    records.set(name, ['127.0.0.1']); // DNS rebinding: public at creation, loopback at delivery
    const { id: eventId } = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => (await h.deliveryStatus(eventId, id)) === 'failed');
    const [attempt] = await h.db('webhook_attempts').where({ endpoint_id: id });
    expect(attempt.response_status).to.equal(null);
    expect(attempt.error).to.match(
      /^blocked: rebind\.merchant\.test resolves to a non-public address: loopback/,
    );
    expect(rx.at('/rebound')).to.have.length(0);
  });

  it('checks IP-literal URLs before every request (the lookup hook never sees them)', async () => {
    const merchantId = await h.merchant();
    const { id } = await h.endpoint(merchantId, 'https://hooks.merchant.test/literal', ['payment.completed']);
    // As if the URL had been stored under a laxer policy: the delivery still refuses it.
    await h
      .db('webhook_endpoints')
      .where({ id })
      .update({ url: rx.url('/literal') });
    const { id: eventId } = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(async () => (await h.deliveryStatus(eventId, id)) === 'failed');
    const [attempt] = await h.db('webhook_attempts').where({ endpoint_id: id });
    expect(attempt.error).to.match(/^blocked: URL points to a non-public address: loopback/);
    expect(rx.at('/literal')).to.have.length(0);
    // The test operation goes through the same sender.
    const test = await h.call('POST', `${API}/${id}/test`, { merchantId });
    expect(test.body.data).to.include({ success: false, status_code: null });
    expect(test.body.data.error).to.match(/^blocked:/);
  });
});
