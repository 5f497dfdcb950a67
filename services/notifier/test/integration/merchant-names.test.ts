import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import { merchantData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';

/**
 * A name the merchant changes in its settings (merchant.settings_updated) is the one its e-mails
 * carry from then on: the highest version wins, and neither a late older version nor a redelivered
 * merchant.created puts an earlier name back.
 */
describe('merchant names from the settings (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;

  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  const settings = (merchantId: string, version: number, name: string) =>
    h.publish('merchant.settings_updated', {
      merchantId,
      version,
      name,
      accentColor: null,
      logoUrl: null,
      networkFeeBearer: null,
    });
  const handled = (messageId: string) =>
    waitFor(() => h.db('inbox').where({ message_id: messageId }).first());
  const nameOf = async (merchantId: string) =>
    (await h.db('merchants').where({ merchant_id: merchantId }).first()).name as string;

  it('keeps the newest name the merchant chose', async () => {
    const merchantId = await h.merchant();
    expect(await nameOf(merchantId)).to.equal('Acme Shop');
    await handled((await settings(merchantId, 2, 'Acme Roasters')).id);
    expect(await nameOf(merchantId)).to.equal('Acme Roasters');
    await handled((await settings(merchantId, 1, 'Stale Name')).id);
    const email = (await h.db('merchants').where({ merchant_id: merchantId }).first()).email as string;
    await handled((await h.publish('merchant.created', merchantData(merchantId, email))).id);
    expect(await nameOf(merchantId)).to.equal('Acme Roasters');
  });
});
