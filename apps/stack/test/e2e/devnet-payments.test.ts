import { expect } from 'chai';
import { Contract, JsonRpcProvider, Wallet, parseUnits } from 'ethers';
import { fiatTokenAbi } from '@stablepay/devnet';
import { proveSession, waitFor } from '../support.js';
import { startStackHarness, type Merchant, type StackHarness } from './harness.js';

/** A customer pays on a devnet chain; the payment completes through the gateway, verified on-chain. */
describe('same-chain payments on the devnet, through the gateway (PostgreSQL, RabbitMQ)', function () {
  this.timeout(120_000);
  let h: StackHarness;
  let shop: Merchant;
  let customerIndex = 0;

  before(async () => {
    h = await startStackHarness();
    shop = await h.register('devnet-shop@example.com');
  });
  after(async () => h?.close());

  const chain = () => h.stack.devnet.chains.find((c) => c.name === 'BASE')!;

  /** A real token transfer from a funded devnet customer; returns the mined transaction. */
  const pay = async (token: 'USDC' | 'EURC', amount: string, to = shop.wallet.address) => {
    const c = chain();
    const provider = new JsonRpcProvider(c.rpcUrl, c.chainId, { staticNetwork: true, cacheTimeout: -1 });
    const customer = h.stack.devnet.customers[customerIndex++ % h.stack.devnet.customers.length]!;
    const signer = new Wallet(customer.privateKey, provider);
    const contract = new Contract(c.tokens[token]!, fiatTokenAbi(), signer);
    const tx = await contract.getFunction('transfer')(to, parseUnits(amount, 6));
    await tx.wait();
    provider.destroy();
    return { txHash: tx.hash as string, from: customer.address, privateKey: customer.privateKey };
  };

  // A session link carries the payer's proof, signed with the customer's key as the checkout page would.
  const report = (
    tx: { txHash: string; from: string; privateKey?: string },
    extra: Record<string, unknown>,
  ) =>
    h.gw.call('POST', '/payments/create-public', {
      body: proveSession(
        {
          merchantId: shop.merchantId,
          txHash: tx.txHash,
          token: 'USDC',
          chainId: chain().chainId,
          fromAddress: tx.from,
          toAddress: shop.wallet.address,
          customerEmail: 'payer@example.com',
          ...extra,
        },
        extra.sessionId ? tx.privateKey : undefined,
      ),
    });

  const finalStatus = (paymentId: string) =>
    waitFor(async () => {
      const r = await h.gw.call('GET', `/payments/api/${paymentId}`, { headers: shop.key });
      return ['completed', 'failed'].includes(r.body.data?.status) ? r.body.data : undefined;
    }, `payment ${paymentId} to finish`);

  it('completes a USDC payment linked to a checkout session and publishes payment.completed', async () => {
    expect(shop.wallet.blockchain).to.equal('BASE');
    expect(shop.wallet.chainId).to.equal(chain().chainId);
    const session = await h.gw.call('POST', '/checkout/sessions', {
      headers: shop.key,
      body: { amount: '25.00', currency: 'USDC', return_url: 'https://shop.example/thanks' },
    });
    const tx = await pay('USDC', '25');
    const created = await report(tx, { amount: 25, expectedAmount: 25, sessionId: session.body.data.id });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const paymentId = created.body.data.paymentId as string;

    const payment = await finalStatus(paymentId);
    expect(payment).to.include({
      status: 'completed',
      received_amount: '25.000000',
      tx_hash: tx.txHash.toLowerCase(),
    });
    const completed = await waitFor(
      () => h.events.find((e) => e.type === 'payment.completed' && e.body.data.payment_id === paymentId),
      'payment.completed',
    );
    expect(completed.body.data).to.include({
      amount: '25.000000',
      currency: 'USDC',
      status: 'completed',
      source_chain: 'BASE',
    });
    const s = await h.gw.call('GET', `/checkout/sessions/${session.body.data.id}`, { headers: shop.key });
    expect(s.body.data.status).to.equal('complete');
    expect(s.body.data.payment).to.include({ id: paymentId, status: 'completed' });

    // The same transfer reported again, with another session, is the same payment and completes nothing else.
    const other = await h.gw.call('POST', '/checkout/sessions', {
      headers: shop.key,
      body: { amount: '25.00', return_url: 'https://shop.example/thanks' },
    });
    const again = await report(tx, {
      amount: 25,
      expectedAmount: 25,
      sessionId: other.body.data.id,
      reference: 'x',
    });
    expect(again.status).to.equal(200);
    expect(again.body.data.paymentId).to.equal(paymentId);
    const o = await h.gw.call('GET', `/checkout/sessions/${other.body.data.id}`, { headers: shop.key });
    expect(o.body.data.status).to.equal('open');
    expect(o.body.data.payment).to.equal(null);
  });

  it('completes a EURC payment', async () => {
    const tx = await pay('EURC', '10.5');
    const created = await report(tx, { token: 'EURC', amount: 10.5, expectedAmount: 10.5 });
    expect(created.status).to.equal(201);
    expect(await finalStatus(created.body.data.paymentId)).to.include({
      status: 'completed',
      currency: 'EURC',
    });
  });

  it('fails an underpaid payment with failure_reason underpaid and the received amount', async () => {
    const tx = await pay('USDC', '4');
    const created = await report(tx, { amount: 5, expectedAmount: 5 });
    const payment = await finalStatus(created.body.data.paymentId);
    expect(payment).to.include({
      status: 'failed',
      failure_reason: 'underpaid',
      received_amount: '4.000000',
    });
    await waitFor(
      () =>
        h.events.find(
          (e) => e.type === 'payment.failed' && e.body.data.payment_id === created.body.data.paymentId,
        ),
      'payment.failed',
    );
  });

  it('refuses a payment to an address that is not the merchant wallet at creation', async () => {
    const tx = await pay('USDC', '1');
    const r = await report(tx, {
      amount: 1,
      expectedAmount: 1,
      toAddress: h.stack.devnet.customers[4]!.address,
    });
    expect(r.status).to.equal(400);
  });

  it('shows the on-chain balances of the merchant wallet, never cached', async () => {
    const r = await h.gw.call('GET', '/wallets/api/balance', { headers: shop.key });
    expect(r.status).to.equal(200);
    expect(r.headers.get('cache-control')).to.equal('no-store');
    expect(r.body.data).to.include({ address: shop.wallet.address, blockchain: 'BASE' });
    const usdc = r.body.data.balances.find((b: { token: string }) => b.token === 'USDC');
    // 25 + 4 + 1 USDC were sent to the wallet above.
    expect(usdc.amount).to.equal('30.000000');
  });

  it('carries the correlation id of the reporting request through every event of the payment', async () => {
    const tx = await pay('USDC', '3');
    const correlationId = `order-${Date.now()}`;
    const created = await h.gw.call('POST', '/payments/create-public', {
      headers: { 'x-correlation-id': correlationId },
      body: {
        merchantId: shop.merchantId,
        txHash: tx.txHash,
        amount: 3,
        expectedAmount: 3,
        token: 'USDC',
        chainId: chain().chainId,
        fromAddress: tx.from,
        toAddress: shop.wallet.address,
        customerEmail: 'payer@example.com',
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const paymentId = created.body.data.paymentId as string;
    expect((await finalStatus(paymentId)).status).to.equal('completed');
    const about = (type: string) =>
      waitFor(
        () =>
          h.events.find(
            (e) => e.type === type && (e.body.data.paymentId ?? e.body.data.payment_id) === paymentId,
          ),
        type,
      );
    // The payments service's own event, the chain-watcher's verdict (made by a background worker,
    // not a request) and the event that becomes the webhook.
    for (const type of ['payment.created', 'chain.payment.verified', 'payment.completed']) {
      expect((await about(type)).body.correlationId, type).to.equal(correlationId);
    }
  });

  // After the balance check above: these send money of their own to the wallet.
  it('holds a payment to its amount: 0.02 sent for a payment of 5 with expectedAmount 0.02 is underpaid, and only 0.02 is refundable', async () => {
    const tx = await pay('USDC', '0.02');
    const created = await report(tx, { amount: 5, expectedAmount: 0.02 });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const paymentId = created.body.data.paymentId as string;
    const payment = await finalStatus(paymentId);
    expect(payment).to.include({
      amount: '5.000000',
      status: 'failed',
      failure_reason: 'underpaid',
      received_amount: '0.020000',
      surplus_amount: null,
    });
    const failed = await waitFor(
      () => h.events.find((e) => e.type === 'payment.failed' && e.body.data.payment_id === paymentId),
      'payment.failed',
    );
    expect(failed.body.data).to.include({ amount: '5.000000', received_amount: '0.020000' });
    expect(
      h.events.some((e) => e.type === 'payment.completed' && e.body.data.payment_id === paymentId),
    ).to.equal(false);
    // What arrived belongs back to the customer, and nothing more.
    const refund = (amount?: string) =>
      waitFor(async () => {
        const r = await h.gw.call('POST', '/refunds/api/create', {
          headers: shop.key,
          body: { paymentId, reason: 'requested_by_customer', ...(amount ? { amount } : {}) },
        });
        return r.status === 404 ? undefined : r;
      }, 'the refunds service to learn of the payment');
    const tooMuch = await refund('5');
    expect(tooMuch.status, JSON.stringify(tooMuch.body)).to.equal(422);
    expect(tooMuch.body).to.include({ success: false });
    expect(JSON.stringify(tooMuch.body.details)).to.contain('0.020000');
    const back = await refund('0.02');
    expect(back.status, JSON.stringify(back.body)).to.equal(201);
    expect(back.body.data.destination_address.toLowerCase()).to.equal(tx.from.toLowerCase());
  });

  it('completes an overpayment with the amount received and the surplus', async () => {
    const tx = await pay('USDC', '5.5');
    const created = await report(tx, { amount: 5, expectedAmount: 5 });
    const paymentId = created.body.data.paymentId as string;
    expect(await finalStatus(paymentId)).to.include({
      status: 'completed',
      amount: '5.000000',
      received_amount: '5.500000',
      surplus_amount: '0.500000',
    });
    const completed = await waitFor(
      () => h.events.find((e) => e.type === 'payment.completed' && e.body.data.payment_id === paymentId),
      'payment.completed',
    );
    expect(completed.body.data).to.include({ received_amount: '5.500000', surplus_amount: '0.500000' });
  });
});
