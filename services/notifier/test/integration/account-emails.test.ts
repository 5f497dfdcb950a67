import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { sealText } from '@stablepay/platform';
import { TEST_INTERNAL_SECRET, waitFor } from '@stablepay/platform/testing';
import { merchantData, paymentData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { SmtpSink, freePort } from '../support/smtp.js';

/** Account e-mails go out before confirmation; every other merchant notice waits for it. */
describe('account e-mails and unconfirmed merchants (real SMTP server)', function () {
  this.timeout(30_000);
  let h: Harness;
  let smtp: SmtpSink;

  before(async () => {
    const port = await freePort();
    smtp = await SmtpSink.start(port);
    h = await startHarness({ env: { SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true` } });
  });
  after(async () => {
    await h?.close();
    await smtp?.close();
  });

  const settled = () => waitFor(async () => (await h.db('emails').where({ status: 'pending' })).length === 0);

  /** A merchant announced by merchant.created as a new, unconfirmed account. */
  const unconfirmedMerchant = async (email: string): Promise<string> => {
    const merchantId = randomUUID();
    await h.publish('merchant.created', { ...merchantData(merchantId, email), emailConfirmed: false });
    await waitFor(() => h.db('merchants').where({ merchant_id: merchantId }).first(), 'projection');
    return merchantId;
  };

  it('sends the confirmation link to an unconfirmed address, as text and as a link', async () => {
    const email = 'new-owner@shop.example.test';
    const merchantId = await unconfirmedMerchant(email);
    const link = 'https://dashboard.example.test/#/confirm-email?token=abc.def&x=<y>';
    await h.publish('account.email_requested', {
      kind: 'email_confirmation',
      merchantId,
      email,
      merchantName: 'New <Shop>',
      sealedLink: sealText(TEST_INTERNAL_SECRET, link),
      expiresAt: '2030-01-02T03:04:05.000Z',
    });
    const [mail] = await smtp.waitForMessages(email, 1);
    expect(mail!.subject).to.equal('Confirm your e-mail address for StablePay');
    expect(mail!.headers.get('x-stablepay-notification')).to.equal('email_confirmation');
    expect(mail!.text).to.include(link).and.include('2030-01-02 03:04 UTC');
    expect(mail!.html)
      .to.include('href="https://dashboard.example.test/#/confirm-email?token=abc.def&amp;x=&lt;y&gt;"')
      .and.include('New &lt;Shop&gt;')
      .and.not.include('<Shop>');
  });

  it('tells a registered owner that someone tried to register with the address', async () => {
    const email = 'known-owner@shop.example.test';
    const merchantId = await h.merchant(email);
    await h.publish('account.email_requested', {
      kind: 'registration_attempted',
      merchantId,
      email,
      merchantName: 'Known Shop',
      link: 'https://dashboard.example.test/#/',
    });
    const [mail] = await smtp.waitForMessages(email, 1);
    expect(mail!.subject).to.equal('Someone tried to register with your e-mail address');
    expect(mail!.text)
      .to.include('No new account was created')
      .and.include('https://dashboard.example.test/#/');
  });

  it('sends an unconfirmed merchant no payment notice (the customer still gets the receipt), and does once confirmed', async () => {
    const email = 'waiting-owner@shop.example.test';
    const merchantId = await unconfirmedMerchant(email);
    await h.publish('payment.completed', paymentData(merchantId, { customer_email: 'payer-1@example.com' }));
    await smtp.waitForMessages('payer-1@example.com', 1);
    await settled();
    expect(smtp.to(email)).to.have.length(0);
    expect(await h.db('emails').where({ recipient: email })).to.have.length(0);

    await h.publish('merchant.email_confirmed', { merchantId, email });
    await waitFor(
      async () =>
        (await h.db('merchants').where({ merchant_id: merchantId }).first())?.email_confirmed === true,
      'confirmation projected',
    );
    // A re-delivered merchant.created, written before the confirmation, does not undo it.
    await h.publish('merchant.created', { ...merchantData(merchantId, email), emailConfirmed: false });
    await h.publish('payment.completed', paymentData(merchantId, { customer_email: 'payer-2@example.com' }));
    const [notice] = await smtp.waitForMessages(email, 1);
    expect(notice!.subject).to.match(/^Payment received/);
  });
});
