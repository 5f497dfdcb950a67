import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import { smtpSuite } from '../support/smtp.js';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('e-mails announcing withdrawal address book changes (real SMTP server)', function () {
  this.timeout(30_000);
  const suite = smtpSuite();

  const change = (merchantId: string) => ({
    merchantId,
    addressId: randomUUID(),
    address: ADDRESS,
    label: 'Cold <wallet>',
    userId: randomUUID(),
    stepUp: 'recent_sign_in' as const,
    usableFrom: '2026-11-28T03:00:00.000Z',
  });

  it('tells the merchant an address was added, with its hold, once however often the event arrives', async () => {
    const email = 'owner@address-book.example.test';
    const merchantId = await suite.h.merchant(email);
    const data = { ...change(merchantId), addedAt: '2026-11-27T03:00:00.000Z' };
    await suite.h.publish('withdrawal_address.added', data, { producer: 'invoicing', merchantId, times: 3 });
    const [mail] = await suite.smtp.waitForMessages(email, 1);
    expect(mail!.subject).to.equal('New withdrawal address added: Cold <wallet>');
    expect(mail!.headers.get('x-stablepay-notification')).to.equal('withdrawal_address_added');
    expect(mail!.text)
      .to.include(ADDRESS)
      .and.include('Withdrawals can go there from 2026-11-28 03:00 UTC')
      .and.include('a recent password sign-in')
      .and.include('If you did not add it, remove it');
    // The label is the merchant's text: escaped in the HTML part.
    expect(String(mail!.html)).to.include('Cold &lt;wallet&gt;').and.not.include('Cold <wallet>');

    await suite.h.publish(
      'withdrawal_address.removed',
      { ...data, removedAt: '2026-11-27T04:00:00.000Z', stepUp: 'mfa' },
      { producer: 'invoicing', merchantId },
    );
    const [, removed] = await suite.smtp.waitForMessages(email, 2);
    expect(removed!.subject).to.equal('Withdrawal address removed: Cold <wallet>');
    expect(removed!.text).to.include(ADDRESS).and.include('an authenticator code');
    await waitFor(async () => (await suite.h.db('emails').where({ status: 'pending' })).length === 0);
    expect(suite.smtp.to(email)).to.have.length(2);
  });
});
