import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Contract, JsonRpcProvider, parseUnits } from 'ethers';
import { fiatTokenAbi } from '@stablepay/devnet';
import { Stablepay } from '@stablepay/node';
import {
  startStackHarness,
  walletOn,
  type Merchant,
  type StackHarness,
} from '../../../apps/stack/test/e2e/harness.js';
import { proveSession, waitFor } from '../../../apps/stack/test/support.js';
import { createShop, type Order } from '../src/shop.js';

describe('the example Express shop on the devnet stack', function () {
  this.timeout(180_000);
  let h: StackHarness;
  let merchant: Merchant;
  let server: Server;
  const providers: JsonRpcProvider[] = [];

  before(async () => {
    h = await startStackHarness();
    merchant = await h.register('shop@express.example');
  });
  after(async () => {
    providers.forEach((p) => p.destroy());
    server?.close();
    await h?.close();
  });

  it('creates a session with the SDK, verifies the webhook with the SDK and marks the order paid', async () => {
    const stablepay = new Stablepay({ apiKey: merchant.key['x-api-key']!, baseUrl: h.stack.gatewayUrl });
    let secret = '';
    const shop = createShop({ stablepay, webhookSecret: () => secret, publicUrl: 'https://shop.example' });
    server = shop.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const shopUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const endpoint = await stablepay.webhookEndpoints.create({
      url: `${shopUrl}/webhooks/stablepay`,
      events: ['payment.completed'],
      description: 'express shop',
    });
    secret = endpoint.secret;

    const ordered = await fetch(`${shopUrl}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ item: 'mug', amount: '12.00' }),
    });
    expect(ordered.status).to.equal(201);
    const order = (await ordered.json()) as Order;
    expect(order).to.include({ status: 'awaiting_payment', amount: '12.00' });
    expect((await stablepay.checkout.sessions.retrieve(order.sessionId)).status).to.equal('open');

    // The customer pays the session on BASE, as the checkout page would report it.
    const chain = h.stack.devnet.chains.find((c) => c.name === 'BASE')!;
    const customer = h.stack.devnet.customers[0]!;
    const usdc = new Contract(
      chain.tokens.USDC!,
      fiatTokenAbi(),
      walletOn(providers, chain, customer.privateKey),
    );
    const tx = await usdc.getFunction('transfer')(merchant.wallet.address, parseUnits('12', 6));
    await tx.wait();
    const reported = await h.gw.call('POST', '/payments/create-public', {
      body: proveSession(
        {
          merchantId: merchant.merchantId,
          txHash: tx.hash,
          amount: 12,
          expectedAmount: 12,
          token: 'USDC',
          chainId: chain.chainId,
          fromAddress: customer.address,
          toAddress: merchant.wallet.address,
          customerEmail: 'payer@example.com',
          sessionId: order.sessionId,
        },
        customer.privateKey,
      ),
    });
    expect(reported.status, JSON.stringify(reported.body)).to.equal(201);

    const paid = await waitFor(
      () => {
        const o = shop.orders.get(order.id)!;
        return o.status === 'paid' && o;
      },
      'the order paid by its verified webhook',
      120_000,
    );
    expect(paid.paymentId).to.equal(reported.body.data.paymentId);
    console.log(`      session created → verified webhook: ${paid.paidAt! - paid.sessionCreatedAt} ms`);
    const view = await (await fetch(`${shopUrl}/orders/${order.id}`)).json();
    expect(view).to.include({ status: 'paid', paymentId: paid.paymentId });

    // What the shop refuses: a forged delivery answers 401, never 500.
    const forged = await fetch(`${shopUrl}/webhooks/stablepay`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
        'x-service-signature': `sha256=${'é'.repeat(64)}`,
      },
      body: JSON.stringify({ event: 'payment.completed', timestamp: new Date().toISOString(), data: {} }),
    });
    expect(forged.status).to.equal(401);
    // The notifier records the 204 once the answer is in.
    await waitFor(async () => {
      const logs = await stablepay.webhookEndpoints.logs(endpoint.id);
      return logs.some((l) => l.status === 'succeeded' && l.response_status === 204);
    }, 'the delivery logged as succeeded');
  });
});
