import { expect } from 'chai';
import {
  WEBHOOK_BODY_SCHEMAS,
  WEBHOOK_EVENT_NAMES,
  type EventDataInput,
  type WebhookEventName,
} from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { extensionEventData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver, signatureMatches } from '../support/receiver.js';

type Extension = keyof ReturnType<typeof extensionEventData>;
type Source = ReturnType<typeof extensionEventData>;

/** The documented payload of each extension event (docs/api/webhooks.md), written out field by field. */
const expectedData = (type: Extension, s: Source): Record<string, unknown> => {
  const w = (d: Source['withdrawal.completed'] | Source['withdrawal.failed']) => ({
    withdrawal_id: d.withdrawalId,
    amount: '1000.000000',
    fee: '5.000000',
    net_amount: '995.000000',
    currency: 'USDC',
    blockchain: 'BASE',
    destination_address: d.destinationAddress,
  });
  const c = s['checkout.session.completed'];
  const e = s['checkout.session.expired'];
  const done = s['withdrawal.completed'];
  const failed = s['withdrawal.failed'];
  const i = s['invoice.issued'];
  return {
    'checkout.session.completed': {
      session_id: c.sessionId,
      status: 'complete',
      payment_id: c.paymentId,
      amount: '49.900000',
      currency: 'USDC',
      completed_at: c.completedAt,
    },
    'checkout.session.expired': { session_id: e.sessionId, status: 'expired', expired_at: e.expiredAt },
    'withdrawal.completed': {
      ...w(done),
      status: 'completed',
      tx_hash: done.txHash,
      fee_tx_hash: done.feeTxHash,
      completed_at: done.completedAt,
    },
    'withdrawal.failed': {
      ...w(failed),
      status: 'failed',
      tx_hash: null,
      fee_tx_hash: failed.feeTxHash,
      failure_reason: failed.reason,
      failed_at: failed.failedAt,
    },
    'invoice.issued': {
      invoice_id: i.invoiceId,
      invoice_number: 'INV-2026-0042',
      withdrawal_id: i.withdrawalId,
      issued_at: i.issuedAt,
      gross_amount: '1000.000000',
      service_fee: '5.000000',
      service_fee_eur: '4.610000',
      tax_amount: '0.800000',
      net_amount: '995.000000',
      currency: 'USDC',
      blockchain: 'BASE',
      tax_case: 'domestic',
      rectifies_invoice_id: null,
    },
  }[type];
};

const EXTENSIONS: Extension[] = [
  'checkout.session.completed',
  'checkout.session.expired',
  'withdrawal.completed',
  'withdrawal.failed',
  'invoice.issued',
];

describe('extension webhook events (PostgreSQL + RabbitMQ + HTTPS receivers)', function () {
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

  for (const type of EXTENSIONS) {
    it(`${type}: one signed delivery of the documented payload, to the merchant's subscribed endpoints only`, async () => {
      const merchantId = await h.merchant();
      const otherMerchant = await h.merchant();
      const slug = type.replaceAll('.', '-');
      const others = WEBHOOK_EVENT_NAMES.filter((n) => n !== type);
      const subscribed = await h.endpoint(merchantId, rx.url(`/${slug}/subscribed`), [type]);
      const everything = await h.endpoint(merchantId, rx.url(`/${slug}/all`), [...WEBHOOK_EVENT_NAMES]);
      // Neither the merchant's endpoint for every other event nor another merchant's for this one.
      await h.endpoint(merchantId, rx.url(`/${slug}/others`), others);
      await h.endpoint(otherMerchant, rx.url(`/${slug}/foreign`), [type]);

      const source = extensionEventData(merchantId);
      const event = await h.publish(type, source[type] as EventDataInput<typeof type>);
      const [req] = await rx.waitForRequests(`/${slug}/subscribed`, 1);
      await rx.waitForRequests(`/${slug}/all`, 1);
      await waitFor(async () => (await h.deliveryStatus(event.id, everything.id)) === 'succeeded');

      expect(req!.eventId).to.equal(event.id);
      expect(req!.headers['x-service-event']).to.equal(type);
      expect(req!.headers['x-service-test']).to.equal('false');
      expect(req!.headers['webhook-id']).to.equal(event.id);
      expect(signatureMatches(subscribed.secret, req!), 'signature').to.equal(true);
      expect(Object.keys(req!.body)).to.deep.equal(['event', 'timestamp', 'data']);
      expect(req!.body).to.deep.include({ event: type, timestamp: event.occurredAt });
      expect(req!.body.data).to.deep.equal(expectedData(type, source));
      expect(WEBHOOK_BODY_SCHEMAS[type as WebhookEventName].safeParse(req!.body).success).to.equal(true);
      expect(await h.deliveryStatus(event.id, subscribed.id)).to.equal('succeeded');

      // The fan-out is one transaction: every delivery the event makes exists once the first succeeded.
      const deliveries = await h.db('webhook_deliveries').where({ event_id: event.id }).pluck('endpoint_id');
      expect(deliveries).to.have.members([subscribed.id, everything.id]);
      expect(rx.at(`/${slug}/subscribed`)).to.have.length(1);
      expect(rx.at(`/${slug}/others`)).to.have.length(0);
      expect(rx.at(`/${slug}/foreign`)).to.have.length(0);
    });
  }

  it('lists the extension events among the subscribable ones, after the specification five', async () => {
    const res = await h.call('GET', '/merchant-webhooks/api/events', { merchantId: await h.merchant() });
    const names = (res.body.data as Array<{ name: string }>).map((e) => e.name);
    expect(names.slice(5)).to.deep.equal(EXTENSIONS);
  });
});
