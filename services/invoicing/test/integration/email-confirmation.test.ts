import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { waitFor, type EventObserver } from '@stablepay/platform/testing';
import { randomAddress, startHarness, type Harness } from '../support/harness.js';

/** Withdrawals wait for the account's confirmed address, which invoicing learns from the gateway's events. */
describe('withdrawals and e-mail confirmation (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let observer: EventObserver;

  before(async () => {
    h = await startHarness();
    observer = await h.observe(['transfer.requested', 'withdrawal.*']);
  });
  after(async () => {
    await observer?.close();
    await h?.close();
  });

  /** A merchant with a funded wallet, announced only by the events the gateway publishes. */
  const announcedMerchant = async (emailConfirmed: boolean | undefined) => {
    const merchantId = randomUUID();
    h.balances.setWallet(merchantId, {
      address: randomAddress(),
      blockchain: 'BASE',
      balances: { USDC: '500' },
    });
    await h.publish('merchant.created', {
      merchantId,
      publicId: `sp_live_${merchantId}`,
      name: 'New Shop',
      blockchain: 'BASE',
      acceptedCurrencies: ['USDC'],
      email: 'new-shop@example.com',
      ...(emailConfirmed === undefined ? {} : { emailConfirmed }),
    });
    await waitFor(() => h.db('merchants').where({ merchant_id: merchantId }).first(), 'projection');
    return { merchantId, wallet: '' };
  };
  // To an approved address: confirmation is what these refusals are about.
  const withdraw = async (m: { merchantId: string; wallet: string }) =>
    h.as(m, 'POST', '/withdrawals/api/create', {
      currency: 'USDC',
      destination_address: (await h.approve(m)).address,
    });
  const movedFor = (merchantId: string) =>
    observer.messages.filter((e) => e.data?.merchantId === merchantId || e.merchantId === merchantId);

  it('refuses an unconfirmed merchant with 403 email_not_confirmed and moves nothing, then withdraws once confirmed', async () => {
    const m = await announcedMerchant(false);
    const refused = await withdraw(m);
    expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
    expect(refused.body).to.deep.include({ success: false });
    expect(refused.body.details[0]).to.include({ code: 'email_not_confirmed' });
    expect(await h.db('withdrawals').where({ merchant_id: m.merchantId })).to.have.length(0);

    await h.publish('merchant.email_confirmed', { merchantId: m.merchantId, email: 'new-shop@example.com' });
    await waitFor(
      async () =>
        (await h.db('merchants').where({ merchant_id: m.merchantId }).first())?.email_confirmed === true,
      'confirmation projected',
    );
    const made = await withdraw(m);
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    // A re-delivered merchant.created (unconfirmed, as it was written) does not undo the confirmation.
    await h.publish('merchant.created', {
      merchantId: m.merchantId,
      publicId: `sp_live_${m.merchantId}`,
      name: 'New Shop',
      blockchain: 'BASE',
      acceptedCurrencies: ['USDC'],
      email: 'new-shop@example.com',
      emailConfirmed: false,
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await h.db('merchants').where({ merchant_id: m.merchantId }).first()).email_confirmed).to.equal(
      true,
    );
  });

  it('refuses a merchant it has not heard of, and lets one announced before confirmation existed withdraw', async () => {
    const stranger = { merchantId: randomUUID(), wallet: '' };
    h.balances.setWallet(stranger.merchantId, {
      address: randomAddress(),
      blockchain: 'BASE',
      balances: { USDC: '500' },
    });
    const refused = await withdraw(stranger);
    expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
    expect(refused.body.details[0]).to.include({ code: 'email_not_confirmed' });
    expect(movedFor(stranger.merchantId)).to.have.length(0);

    // merchant.created without emailConfirmed was written before confirmation existed.
    const older = await announcedMerchant(undefined);
    expect((await withdraw(older)).status).to.equal(201);
  });
});
