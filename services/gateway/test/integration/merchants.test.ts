import { randomUUID } from 'node:crypto';
import { EventTypes } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import amqp, { type Channel, type ChannelModel } from 'amqplib';
import { expect } from 'chai';
import {
  STRONG_PASSWORD,
  call,
  closedPortUrl,
  signUp,
  startTestGateway,
  uniqueEmail,
  type TestGateway,
} from './harness.js';

describe('gateway: merchants and their events', () => {
  let gw: TestGateway;
  let connection: ChannelModel;
  let channel: Channel;
  let observed: string;

  before(async () => {
    gw = await startTestGateway(await closedPortUrl());
    connection = await amqp.connect(gw.amqpUrl);
    channel = await connection.createChannel();
    // An observer queue on the real exchange, as another service's queue would be.
    observed = (await channel.assertQueue('', { exclusive: true })).queue;
    await channel.bindQueue(observed, `${gw.prefix}stablepay.events`, 'merchant.created');
  });
  after(async () => {
    await connection?.close();
    await gw?.close();
  });

  it('publishes merchant.created exactly once, from the outbox, on registration', async () => {
    const email = uniqueEmail();
    const res = await call(gw.url, 'POST', '/auth/register', {
      body: {
        email,
        password: STRONG_PASSWORD,
        merchantName: 'Bean There',
        blockchain: 'MATIC',
        acceptedCurrencies: ['EURC', 'USDC'],
      },
      headers: { 'x-correlation-id': 'corr-register-1' },
    });
    expect(res.status).to.equal(201);
    const merchantId: string = (await gw.db('users').where({ email }).first()).merchant_id;
    const publicId = `sp_live_${merchantId}`;

    // Published means confirmed by the broker, so the message is in the queue by then.
    await waitFor(async () => {
      const row = await gw
        .db('outbox')
        .where({ type: 'merchant.created' })
        .whereNotNull('published_at')
        .first();
      return row ?? undefined;
    });
    const message = await waitFor(async () => channel.get(observed, { noAck: true }));
    expect(await channel.get(observed, { noAck: true })).to.equal(false);

    expect(message.properties.type).to.equal('merchant.created');
    const envelope = JSON.parse(message.content.toString('utf8'));
    expect(envelope).to.include({
      type: 'merchant.created',
      version: 1,
      producer: 'gateway',
      merchantId,
      correlationId: 'corr-register-1',
    });
    expect(envelope.data).to.deep.equal({
      merchantId,
      publicId,
      name: 'Bean There',
      blockchain: 'MATIC',
      acceptedCurrencies: ['EURC', 'USDC'],
      email,
      emailConfirmed: false,
    });
  });

  it('refuses a blockchain outside the chain registry with 400 naming the field', async () => {
    const res = await call(gw.url, 'POST', '/auth/register', {
      body: { email: uniqueEmail(), password: STRONG_PASSWORD, merchantName: 'A', blockchain: 'ARB' },
    });
    expect(res.status).to.equal(400);
    expect(res.body.details).to.deep.equal([
      { path: 'blockchain', message: 'must be one of ETH, BASE, MATIC', code: 'unsupported_blockchain' },
    ]);
  });

  it('serves public merchant info by public id or internal UUID, and 404 otherwise', async () => {
    const account = await signUp(gw.url, 'Info Shop');
    const byPublic = await call(gw.url, 'GET', `/merchants/${account.merchantPublicId}/info`);
    expect(byPublic.status).to.equal(200);
    expect(byPublic.body).to.deep.equal({
      success: true,
      data: {
        name: 'Info Shop',
        blockchain: 'BASE',
        accepted_currencies: 'USDC',
        logo_url: null,
        accent_color: null,
      },
    });
    const byUuid = await call(
      gw.url,
      'GET',
      `/merchants/${account.merchantPublicId.replace(/^sp_live_/, '')}/info`,
    );
    expect(byUuid.body).to.deep.equal(byPublic.body);
    for (const id of [`sp_live_${randomUUID()}`, 'not-an-id']) {
      const missing = await call(gw.url, 'GET', `/merchants/${id}/info`);
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ success: false, error: 'Merchant not found', details: [] });
    }
  });

  it('serves the wallet once wallet.assigned arrives, 404 until then', async () => {
    const account = await signUp(gw.url);
    const merchantId = account.merchantPublicId.replace(/^sp_live_/, '');
    const before = await call(gw.url, 'GET', `/merchants/${account.merchantPublicId}/wallet`);
    expect(before.status).to.equal(404);
    expect(before.body).to.deep.equal({ success: false, error: 'Wallet not assigned', details: [] });

    const walletId = randomUUID();
    const address = '0x' + 'ab'.repeat(20);
    // Delivered twice, as at-least-once delivery may: the inbox makes the second a no-op.
    const event = await gw.publish(
      EventTypes.WalletAssigned,
      { merchantId, walletId, address, blockchain: 'BASE', chainId: 8453 },
      { producer: 'chain-watcher', times: 2 },
    );

    const wallet = await waitFor(async () => {
      const res = await call(gw.url, 'GET', `/merchants/${account.merchantPublicId}/wallet`);
      return res.status === 200 ? res : undefined;
    });
    expect(wallet.body).to.deep.equal({
      success: true,
      data: { wallet: { id: walletId, address, blockchain: 'BASE', chainId: 8453 } },
    });
    const inbox = await waitFor(async () => {
      const rows = await gw.db('inbox').where({ message_id: event.id });
      return rows.length === 1 ? rows : undefined;
    });
    expect(inbox).to.have.length(1);
  });
});
