import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { quietLogger } from '@stablepay/platform/testing';
import { waitFor } from '@stablepay/platform/testing';
import { retentionWorker } from '../../src/delivery/retention.js';
import { paymentData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

describe('retention', function () {
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

  it('deletes events with their deliveries and logs, and finished e-mails, once they are old', async () => {
    const merchantId = await h.merchant();
    const { id } = await h.endpoint(merchantId, rx.url('/kept'), ['payment.completed']);
    const { id: old } = await h.publish('payment.completed', paymentData(merchantId));
    const { id: recent } = await h.publish('payment.completed', paymentData(merchantId));
    for (const e of [old, recent]) await waitFor(async () => (await h.deliveryStatus(e, id)) === 'succeeded');
    await waitFor(async () => (await h.db('emails').where({ event_id: old, status: 'sent' })).length === 2);
    const longAgo = new Date(Date.now() - 50 * 86_400_000);
    await h.db('webhook_events').where({ id: old }).update({ occurred_at: longAgo });
    await h.db('emails').where({ event_id: old }).update({ created_at: longAgo });
    const pendingOld = randomUUID();
    await h.db('emails').insert({
      id: randomUUID(),
      event_id: pendingOld,
      template: 'payment_receipt',
      recipient: 'x@example.com',
      subject: 's',
      text_body: 't',
      html_body: 'h',
      message_id: '<m@x>',
      next_attempt_at: new Date(Date.now() + 86_400_000),
      created_at: longAgo,
    });

    const worker = retentionWorker({
      db: h.db,
      logger: quietLogger(),
      retentionDays: 45,
      intervalMs: 60_000,
    });
    worker.start();
    await waitFor(async () => !(await h.db('webhook_events').where({ id: old }).first()));
    await worker.stop();
    expect(await h.db('webhook_deliveries').where({ event_id: old })).to.deep.equal([]);
    expect(await h.db('webhook_attempts').where({ event_id: old })).to.deep.equal([]);
    expect(await h.db('emails').where({ event_id: old })).to.deep.equal([]);
    // A message not sent yet is kept, however old; recent events are kept.
    expect(await h.db('emails').where({ event_id: pendingOld })).to.have.length(1);
    expect(await h.db('webhook_attempts').where({ event_id: recent })).to.have.length(1);
    expect(
      (await h.call('GET', `/merchant-webhooks/api/${id}/logs`, { merchantId })).body.data.logs,
    ).to.have.length(1);
  });
});
