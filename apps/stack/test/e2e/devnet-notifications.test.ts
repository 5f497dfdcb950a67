import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { Contract, JsonRpcProvider, Wallet, parseUnits } from 'ethers';
import { fiatTokenAbi } from '@stablepay/devnet';
import { waitFor } from '../support.js';
import { startStackHarness, type Merchant, type StackHarness } from './harness.js';
import { signatureValid, startReceiver } from './webhook-receiver.js';

describe('webhooks and e-mail for a devnet payment and its refund, through the gateway', function () {
  this.timeout(180_000);
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let h: StackHarness;
  let shop: Merchant;

  before(async () => {
    receiver = await startReceiver();
    h = await startStackHarness({ REFUND_HOLD_SECONDS: '1', WEBHOOK_EXTRA_CA_FILE: receiver.caFile });
    shop = await h.register('hooks@shop.example');
  });
  after(async () => {
    await h?.close();
    receiver?.close();
  });

  it('delivers signed payment.completed, refund.created and refund.completed, and e-mails the receipt', async () => {
    const created = await h.gw.call('POST', '/merchant-webhooks/api/create', {
      headers: shop.key,
      body: {
        url: receiver.url,
        events: ['payment.completed', 'refund.created', 'refund.completed'],
        description: 'orders',
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const secret = created.body.data.secret as string;
    expect(secret).to.match(/^whsec_/);

    const base = h.stack.devnet.chains.find((c) => c.name === 'BASE')!;
    const provider = new JsonRpcProvider(base.rpcUrl, base.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    const customer = new Wallet(h.stack.devnet.customers[0]!.privateKey, provider);
    const tx = await new Contract(base.tokens.USDC, fiatTokenAbi(), customer).getFunction('transfer')(
      shop.wallet.address,
      parseUnits('12', 6),
    );
    await tx.wait();
    provider.destroy();
    const payment = await h.gw.call('POST', '/payments/create-public', {
      body: {
        merchantId: shop.merchantId,
        txHash: tx.hash,
        amount: 12,
        expectedAmount: 12,
        token: 'USDC',
        chainId: base.chainId,
        fromAddress: customer.address,
        toAddress: shop.wallet.address,
        customerEmail: 'payer@example.com',
        reference: 'order-77',
      },
    });
    const paymentId = payment.body.data.paymentId as string;

    const paid = await waitFor(
      () => receiver.received.find((r) => r.body.event === 'payment.completed'),
      'payment webhook',
      60_000,
    );
    expect(signatureValid(paid, secret)).to.equal(true);
    expect(paid.headers['x-service-event']).to.equal('payment.completed');
    expect(paid.headers['x-service-test']).to.not.equal('true');
    expect(paid.body.data).to.include({
      payment_id: paymentId,
      amount: '12.000000',
      currency: 'USDC',
      status: 'completed',
      reference: 'order-77',
    });
    expect(paid.body.data).to.not.have.property('merchant_id');

    const refund = await waitFor(async () => {
      const r = await h.gw.call('POST', '/refunds/api/create', {
        headers: shop.key,
        body: { paymentId, reason: 'requested_by_customer' },
      });
      return r.status === 201 ? r : undefined;
    }, 'refund creation');
    const refundId = refund.body.data.id as string;
    const refunded = await waitFor(
      () =>
        receiver.received.find(
          (r) => r.body.event === 'refund.completed' && r.body.data.refund_id === refundId,
        ),
      'refund.completed webhook',
      60_000,
    );
    expect(signatureValid(refunded, secret)).to.equal(true);
    expect(refunded.body.data).to.include({
      payment_id: paymentId,
      amount: '12.000000',
      status: 'completed',
      blockchain: 'BASE',
    });
    expect(refunded.body.data.tx_hash).to.match(/^0x[0-9a-f]{64}$/);
    expect(
      receiver.received.some((r) => r.body.event === 'refund.created' && r.body.data.refund_id === refundId),
    ).to.equal(true);

    const logs = await h.gw.call('GET', `/merchant-webhooks/api/${created.body.data.id}/logs?limit=10`, {
      headers: shop.key,
    });
    expect(logs.status).to.equal(200);

    // No SMTP configured: the receipt to the customer is written as an .eml file.
    const mailDir = join(h.varDir, 'mail');
    const receipt = await waitFor(
      () => {
        if (!existsSync(mailDir)) return undefined;
        return readdirSync(mailDir)
          .map((f) => readFileSync(join(mailDir, f), 'utf8'))
          .find((m) => /^To: .*payer@example\.com/m.test(m) && m.includes(paymentId.slice(0, 8)));
      },
      'receipt e-mail',
      30_000,
    );
    expect(receipt).to.match(/12(\.00)?/);
  });
});
