import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import type { GaslessRelayServer } from '../support/gasless-relay-server.js';
import { getQuote, openSession, startRelay } from '../support/gasless.js';
import { startHarness, type Harness, type TestMerchant } from '../support/harness.js';

/**
 * The merchant's settings reach payments as the gateway announces them (merchant.settings_updated):
 * the checkout session's public view shows the name, logo and accent colour, and a gasless quote
 * follows the merchant's choice of who bears the network fee, the deployment's default otherwise.
 */
describe('merchant settings in payments (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let relay: GaslessRelayServer;
  let shop: TestMerchant;

  before(async () => {
    relay = await startRelay();
    // The deployment's default is the customer.
    h = await startHarness({ CHAIN_WATCHER_URL: relay.url, GASLESS_FEE_BEARER: 'customer' });
    shop = await h.seedMerchant({ wallet: true, currencies: ['USDC'] });
  });
  after(async () => {
    await h?.close();
    await relay?.close();
  });

  const announce = async (version: number, settings: Record<string, unknown>) => {
    await h.publish('merchant.settings_updated', {
      merchantId: shop.merchantId,
      version,
      name: 'Test Shop',
      accentColor: null,
      logoUrl: null,
      networkFeeBearer: null,
      ...settings,
    });
    await waitFor(() =>
      h
        .db('merchants')
        .where({ merchant_id: shop.merchantId })
        .where('settings_version', '>=', version)
        .first(),
    );
  };
  /** Waits until the service has handled the message (its inbox row), whatever it did with it. */
  const handled = (messageId: string) =>
    waitFor(() => h.db('inbox').where({ message_id: messageId }).first());
  const quote = (sessionId: string) =>
    getQuote(h, { merchantId: shop.publicId, chainId: 31337, token: 'USDC', sessionId });

  it('quotes with the customer bearing the fee until the merchant chooses to bear it', async () => {
    const sessionId = await openSession(h, shop, { amount: '25' });
    expect(await quote(sessionId)).to.include({
      feeBearer: 'customer',
      amount: '25.000000',
      total: '25.540000',
    });

    await announce(1, { networkFeeBearer: 'merchant' });
    const borne = await quote(sessionId);
    // The merchant bears it: the customer authorises the amount alone, the fee is still priced.
    expect(borne).to.include({
      feeBearer: 'merchant',
      amount: '25.000000',
      networkFee: '0.540000',
      total: '25.000000',
    });
    expect(borne.authorization.value).to.equal('25000000');

    await announce(2, { networkFeeBearer: null });
    expect((await quote(sessionId)).feeBearer).to.equal('customer');
  });

  it('shows the name, logo and accent colour in the public view, and ignores an older copy delivered late', async () => {
    const logoUrl = `/merchants/${shop.publicId}/logo?v=0123456789abcdef`;
    await announce(3, {
      name: 'Acme Roasters',
      accentColor: '#0b5fff',
      logoUrl,
      networkFeeBearer: 'merchant',
    });
    // A late copy of version 2, and a redelivered merchant.created, change nothing.
    const late = await h.publish('merchant.settings_updated', {
      merchantId: shop.merchantId,
      version: 2,
      name: 'Stale Name',
      accentColor: null,
      logoUrl: null,
      networkFeeBearer: 'customer',
    });
    const replayed = await h.publish('merchant.created', {
      merchantId: shop.merchantId,
      publicId: shop.publicId,
      name: 'Test Shop',
      blockchain: 'BASE',
      acceptedCurrencies: ['USDC'],
      email: 'shop@example.test',
    });
    const sessionId = await openSession(h, shop, { amount: '5' });
    await handled(late.id);
    await handled(replayed.id);
    const pub = await h.call('GET', `/checkout/sessions/${sessionId}/public`);
    expect(pub.body.data.merchant).to.include({
      name: 'Acme Roasters',
      logo_url: logoUrl,
      accent_color: '#0b5fff',
    });
    expect((await quote(sessionId)).feeBearer).to.equal('merchant');
  });
});
