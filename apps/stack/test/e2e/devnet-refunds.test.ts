import { expect } from 'chai';
import { Contract, JsonRpcProvider, Wallet, parseUnits } from 'ethers';
import { fiatTokenAbi } from '@stablepay/devnet';
import { waitFor } from '../support.js';
import {
  completedPayment as payAndComplete,
  startStackHarness,
  type Merchant,
  type StackHarness,
} from './harness.js';

/** Refunds sent on-chain to the payer, through the gateway, on the devnet. */
describe('refunds on the devnet, through the gateway (PostgreSQL, RabbitMQ)', function () {
  this.timeout(180_000);
  let h: StackHarness;
  let shop: Merchant;
  let provider: JsonRpcProvider;

  before(async () => {
    h = await startStackHarness({ REFUND_HOLD_SECONDS: '1' });
    shop = await h.register('refund-shop@example.com');
    const c = chain();
    provider = new JsonRpcProvider(c.rpcUrl, c.chainId, { staticNetwork: true, cacheTimeout: -1 });
  });
  after(async () => {
    provider?.destroy();
    await h?.close();
  });

  const chain = () => h.stack.devnet.chains.find((c) => c.name === 'BASE')!;
  const usdc = (signer?: Wallet) => new Contract(chain().tokens.USDC, fiatTokenAbi(), signer ?? provider);
  const balanceOf = async (address: string): Promise<bigint> => usdc().getFunction('balanceOf')(address);

  /** A customer pays `amount` USDC for real and the payment completes. */
  const completedPayment = (customerIndex: number, amount: string) =>
    payAndComplete(h, shop, provider, customerIndex, amount);

  const refund = (paymentId: string, extra: Record<string, unknown> = {}) =>
    h.gw.call('POST', '/refunds/api/create', {
      headers: shop.key,
      body: { paymentId, reason: 'requested_by_customer', ...extra },
    });

  const refundCreatable = (paymentId: string) =>
    waitFor(async () => {
      // The refunds service learns of the completed payment from payment.completed.
      const r = await refund(paymentId, { amount: '0.000001', note: 'probe' });
      if (r.status === 404) return undefined;
      return r;
    }, 'refund projection');

  const finalRefund = (id: string) =>
    waitFor(
      async () => {
        const r = await h.gw.call('GET', `/refunds/api/${id}`, { headers: shop.key });
        return ['completed', 'failed'].includes(r.body.data?.status) ? r.body.data : undefined;
      },
      `refund ${id}`,
      60_000,
    );

  it('refunds a payment in full: the payer receives exactly the amount, from the merchant wallet', async () => {
    const { id, customer } = await completedPayment(0, '20');
    const probe = await refundCreatable(id);
    expect(probe.status).to.equal(201);
    const before = await balanceOf(customer.address);

    // The request's correlation id follows the refund through the dispatcher's transfer command,
    // the chain-watcher's sender and back (all of them background work, not requests).
    const correlationId = `refund-${Date.now()}`;
    const r = await h.gw.call('POST', '/refunds/api/create', {
      headers: { ...shop.key, 'x-correlation-id': correlationId },
      body: { paymentId: id, reason: 'requested_by_customer' },
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(r.body.data).to.deep.equal({
      id: r.body.data.id,
      payment_id: id,
      amount: '19.999999',
      currency: 'USDC',
      status: 'pending',
      destination_address: r.body.data.destination_address,
      blockchain: 'BASE',
      reason: 'requested_by_customer',
    });
    expect(r.body.data.destination_address.toLowerCase()).to.equal(customer.address.toLowerCase());

    const done = await finalRefund(r.body.data.id);
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(done.tx_hash).to.match(/^0x[0-9a-f]{64}$/);
    await waitFor(async () => (await finalRefund(probe.body.data.id)).status === 'completed', 'probe refund');
    expect((await balanceOf(customer.address)) - before).to.equal(parseUnits('20', 6));

    const completed = await waitFor(
      () => h.events.find((e) => e.type === 'refund.completed' && e.body.data.refund_id === r.body.data.id),
      'refund.completed',
    );
    expect(completed.body.data).to.include({
      amount: '19.999999',
      status: 'completed',
      tx_hash: done.tx_hash,
    });
    expect(completed.body.correlationId).to.equal(correlationId);
    const requested = h.events.find(
      (e) => e.type.startsWith('transfer.requested') && e.body.data.idempotencyKey === r.body.data.id,
    );
    expect(requested?.body.correlationId, 'transfer.requested').to.equal(correlationId);
    // The merchant wallet paid no gas: it holds none.
    expect(await provider.getBalance(shop.wallet.address)).to.equal(0n);
  });

  it('allows partial refunds up to the payment amount and not beyond', async () => {
    const { id } = await completedPayment(1, '10');
    const first = await refundCreatable(id); // 0.000001
    expect(first.status).to.equal(201);
    expect((await refund(id, { amount: '4' })).status).to.equal(201);
    const over = await refund(id, { amount: '6' });
    expect(over.status).to.equal(422);
    expect(over.body.success).to.equal(false);
    expect((await refund(id, { amount: '5.999999' })).status).to.equal(201);
    expect((await refund(id, { amount: '0.000001' })).status).to.equal(422);
  });

  it('cancels a refund while pending, and refuses once it is processing or completed', async () => {
    const { id } = await completedPayment(2, '3');
    await refundCreatable(id);
    const r = await refund(id, { amount: '1' });
    const cancelled = await h.gw.call('POST', `/refunds/api/${r.body.data.id}/cancel`, { headers: shop.key });
    expect(cancelled.status).to.equal(200);
    expect(cancelled.body).to.deep.equal({ success: true });
    expect(
      (await h.gw.call('GET', `/refunds/api/${r.body.data.id}`, { headers: shop.key })).body.data.status,
    ).to.equal('cancelled');

    const s = await refund(id, { amount: '1' });
    await waitFor(async () => {
      const d = await h.gw.call('GET', `/refunds/api/${s.body.data.id}`, { headers: shop.key });
      return d.body.data.status !== 'pending';
    }, 'dispatch');
    const refused = await h.gw.call('POST', `/refunds/api/${s.body.data.id}/cancel`, { headers: shop.key });
    expect(refused.status).to.equal(409);
    expect(refused.body.success).to.equal(false);
    expect((await finalRefund(s.body.data.id)).status).to.equal('completed');
  });

  it("answers 404 for another merchant's payment", async () => {
    const { id } = await completedPayment(3, '2');
    await refundCreatable(id);
    const other = await h.register('other-refunder@example.com');
    const r = await h.gw.call('POST', '/refunds/api/create', {
      headers: other.key,
      body: { paymentId: id, reason: 'other' },
    });
    expect(r.status).to.equal(404);
  });
});
