import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { simpleParser } from 'mailparser';
import { GroupCommit, buildEvent } from '@stablepay/platform';
import { metricValue, scrapeMetrics, waitFor } from '@stablepay/platform/testing';
import { notifierConsumers } from '../../src/events/consumers.js';
import { paymentData, refundData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { SmtpSink, freePort } from '../support/smtp.js';

describe('e-mails (real SMTP server)', function () {
  this.timeout(30_000);
  let h: Harness;
  let smtp: SmtpSink;
  let port: number;

  before(async () => {
    port = await freePort();
    smtp = await SmtpSink.start(port);
    h = await startHarness({ env: { SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true` } });
  });
  after(async () => {
    await h?.close();
    await smtp?.close();
  });

  const settled = () => waitFor(async () => (await h.db('emails').where({ status: 'pending' })).length === 0);

  it('sends the customer a receipt and the merchant a notice on payment.completed, once each', async () => {
    const merchantEmail = 'owner@acme.example.test';
    const merchantId = await h.merchant(merchantEmail);
    const customer = 'Buyer.One@Example.com';
    const payment = paymentData(merchantId, { customer_email: customer, reference: '<b>order-7</b>' });
    const { id: eventId } = await h.publish('payment.completed', payment, { times: 3 }); // redelivered twice
    const [receipt] = await smtp.waitForMessages('buyer.one@example.com', 1);
    const [notice] = await smtp.waitForMessages(merchantEmail, 1);
    await settled();
    // A later event of another merchant has been handled: any duplicate would have been sent by now.
    const other = await h.merchant();
    await h.publish('payment.completed', paymentData(other, { customer_email: 'marker@example.com' }));
    await smtp.waitForMessages('marker@example.com', 1);
    await settled();
    expect(smtp.to('buyer.one@example.com')).to.have.length(1);
    expect(smtp.to(merchantEmail)).to.have.length(1);

    expect(receipt!.subject).to.equal('Receipt: 25.500000 USDC paid to Acme Shop');
    expect(receipt!.from!.value).to.deep.equal([{ address: 'no-reply@pay.example.test', name: 'StablePay' }]);
    expect(receipt!.text)
      .to.include(payment.tx_hash)
      .and.include(payment.payment_id)
      .and.include('<b>order-7</b>');
    expect(receipt!.html).to.include('&lt;b&gt;order-7&lt;/b&gt;').and.not.include('<b>order-7</b>');
    expect(receipt!.headers.get('x-stablepay-notification')).to.equal('payment_receipt');
    expect(notice!.subject).to.equal('Payment received: 25.500000 USDC');
    expect(notice!.text).to.include(customer);
    const rows = await h.db('emails').where({ event_id: eventId }).orderBy('template');
    expect(rows.map((r) => [r.template, r.recipient, r.status])).to.deep.equal([
      ['payment_receipt', 'buyer.one@example.com', 'sent'],
      ['payment_received', merchantEmail, 'sent'],
    ]);
    expect(receipt!.messageId).to.equal(rows[0].message_id);
    // The connections are pooled: fewer than one per message.
    expect(smtp.connections).to.be.within(1, smtp.messages.length - 1);
  });

  it('tells the customer when a refund completed, using the address from the payment', async () => {
    const merchantId = await h.merchant();
    const payment = paymentData(merchantId, { customer_email: 'refund-me@example.com' });
    await h.publish('payment.completed', payment);
    await smtp.waitForMessages('refund-me@example.com', 1);
    await h.publish(
      'refund.created',
      refundData(merchantId, payment.payment_id, { status: 'pending', tx_hash: null }),
    );
    const refund = refundData(merchantId, payment.payment_id, { amount: '3.250000' });
    await h.publish('refund.completed', refund, { times: 2 });
    const mails = await smtp.waitForMessages('refund-me@example.com', 2);
    await settled();
    const notice = mails.find((m) => m.subject?.startsWith('Refund sent'))!;
    expect(notice.subject).to.equal('Refund sent: 3.250000 USDC');
    expect(notice.text)
      .to.include(refund.tx_hash)
      .and.include(refund.destination_address)
      .and.include('Acme Shop');
    expect(smtp.to('refund-me@example.com')).to.have.length(2); // the receipt and the refund notice
    // A refund of a payment we never saw has nobody to tell.
    const { id: orphan } = await h.publish('refund.completed', refundData(merchantId, randomUUID()));
    await waitFor(() => h.db('webhook_events').where({ id: orphan }).first());
    expect(await h.db('emails').where({ event_id: orphan })).to.deep.equal([]);
  });

  it("finds the payer of a refund handled in the same consumer batch as the payment's completion", async () => {
    const merchantId = await h.merchant();
    const payment = paymentData(merchantId, { customer_email: 'same-batch@example.com' });
    const handlers = notifierConsumers(h.context) as Record<string, (event: any, trx: any) => Promise<void>>;
    const handle = (type: 'payment.completed' | 'refund.completed', data: object) => {
      const event = buildEvent({
        type,
        producer: type === 'payment.completed' ? 'payments' : 'refunds',
        merchantId,
        data,
      } as any);
      return (trx: any) => handlers[type]!(event, trx);
    };
    // While a first unit holds the consumer's transaction, the next two queue up and then share one.
    const group = new GroupCommit(h.db);
    let release!: () => void;
    let held!: Promise<boolean>;
    await new Promise<void>((started) => {
      held = group.run(
        () =>
          new Promise<void>((r) => {
            release = r;
            started();
          }),
      );
    });
    const both = Promise.all([
      group.run(handle('payment.completed', payment)),
      group.run(
        handle('refund.completed', refundData(merchantId, payment.payment_id, { amount: '1.000000' })),
      ),
    ]);
    release();
    await held;
    await both;
    // One transaction wrote both events.
    const { rows } = await h.db.raw(`select distinct xmin::text from webhook_events where merchant_id = ?`, [
      merchantId,
    ]);
    expect(rows).to.have.length(1);
    const mails = await smtp.waitForMessages('same-batch@example.com', 2);
    expect(mails.map((m) => m.subject).sort()).to.deep.equal([
      'Receipt: 25.500000 USDC paid to Acme Shop',
      'Refund sent: 1.000000 USDC',
    ]);
  });

  it('retries while the SMTP server is down and sends once it is back', async () => {
    await smtp.close();
    const merchantId = await h.merchant();
    await h.publish('payment.completed', paymentData(merchantId, { customer_email: 'patient@example.com' }));
    const [row] = await waitFor(async () => {
      const r = await h.db('emails').where({ recipient: 'patient@example.com' });
      return r.length === 1 && r[0].attempts >= 2 && r;
    });
    expect(row.status).to.equal('pending');
    expect(row.last_error).to.match(/ECONNREFUSED|connect/i);
    smtp = await SmtpSink.start(port);
    await smtp.waitForMessages('patient@example.com', 1, 15_000);
    await waitFor(
      async () =>
        (await h.db('emails').where({ recipient: 'patient@example.com' }).first()).status === 'sent',
      15_000,
    );
    expect(smtp.to('patient@example.com')).to.have.length(1);
  });

  it('retries a temporary refusal (4xx) and gives up at once on a permanent one (5xx)', async () => {
    const merchantId = await h.merchant();
    smtp.refuseWith = 451;
    await h.publish('payment.completed', paymentData(merchantId, { customer_email: 'later@example.com' }));
    await waitFor(
      async () => (await h.db('emails').where({ recipient: 'later@example.com' }).first())?.attempts >= 2,
    );
    smtp.refuseWith = undefined;
    await smtp.waitForMessages('later@example.com', 1, 15_000);

    smtp.refuseWith = 550;
    await h.publish('payment.completed', paymentData(merchantId, { customer_email: 'nobody@example.com' }));
    const failed = await waitFor(async () => {
      const r = await h.db('emails').where({ recipient: 'nobody@example.com' }).first();
      return r?.status === 'failed' && r;
    });
    expect(failed.attempts).to.equal(1);
    expect(failed.last_error).to.include('550');
    smtp.refuseWith = undefined;

    // Every SMTP exchange is timed by its outcome.
    const text = await scrapeMetrics(h.url);
    expect(metricValue(text, 'email_send_duration_seconds_count', { outcome: 'refused' })).to.be.at.least(1);
    expect(metricValue(text, 'email_send_duration_seconds_count', { outcome: 'error' })).to.be.at.least(2);
    expect(metricValue(text, 'email_send_duration_seconds_count', { outcome: 'sent' })).to.be.at.least(1);
  });
});

describe('e-mails without SMTP (.eml files)', function () {
  this.timeout(30_000);
  let h: Harness;

  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
  });

  it('writes each message once as an .eml file under MAIL_DIR', async () => {
    expect(h.config.SMTP_URL).to.equal(undefined);
    const merchantId = await h.merchant('files@acme.example.test');
    const { id: eventId } = await h.publish('payment.completed', paymentData(merchantId), { times: 2 });
    const dir = h.config.MAIL_DIR;
    const files = await waitFor(() => {
      const list = readdirSync(dir).filter((f) => f.endsWith('.eml'));
      return list.length === 2 && list;
    });
    const parsed = await Promise.all(files.map((f) => simpleParser(readFileSync(join(dir, f)))));
    expect(parsed.map((m) => m.subject).sort()).to.deep.equal([
      'Payment received: 25.500000 USDC',
      'Receipt: 25.500000 USDC paid to Acme Shop',
    ]);
    // A batch is marked sent once all of its messages are written.
    const rows = await waitFor(async () => {
      const r = await h.db('emails').where({ event_id: eventId });
      return r.every((m) => m.status === 'sent') && r;
    });
    expect(rows.every((r) => r.status === 'sent')).to.equal(true);
    expect(parsed.map((m) => m.messageId).sort()).to.deep.equal(rows.map((r) => r.message_id).sort());
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).to.deep.equal([]);
  });
});
