import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import { startHarness, type Harness } from '../support/harness.js';

/**
 * The name an invoice falls back to before a billing profile exists follows the merchant's settings
 * (merchant.settings_updated), the highest version winning; settings that overtake merchant.created
 * wait for it.
 */
describe('invoicing: merchant names from the settings (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;

  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('applies a name changed before the merchant was known, once it is', async () => {
    const merchantId = randomUUID();
    const renamed = await h.publish('merchant.settings_updated', {
      merchantId,
      version: 1,
      name: 'Acme Roasters',
      accentColor: '#0b5fff',
      logoUrl: null,
      networkFeeBearer: 'merchant',
    });
    await h.publish('merchant.created', {
      merchantId,
      publicId: `sp_live_${merchantId}`,
      name: 'Acme Coffee',
      blockchain: 'BASE',
      acceptedCurrencies: ['USDC'],
      email: 'owner@acme.example.test',
      emailConfirmed: true,
    });
    // The settings were retried after a delay until the merchant arrived.
    await waitFor(() => h.db('inbox').where({ message_id: renamed.id }).first(), 'settings applied', 20_000);
    const row = await h.db('merchants').where({ merchant_id: merchantId }).first();
    expect(row).to.include({ name: 'Acme Roasters', settings_version: 1 });
  });
});
