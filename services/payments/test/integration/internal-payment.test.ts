import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { InternalPaymentResponse, PaymentCompletedData } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { paymentBody, startHarness, type Harness, type TestMerchant } from '../support/harness.js';

/** The refunds service reads a payment here when payment.completed has not reached it yet. */
describe('GET /internal/merchants/:merchantId/payments/:id (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;
  let other: TestMerchant;

  before(async () => {
    h = await startHarness();
    shop = await h.seedMerchant({ wallet: true });
    other = await h.seedMerchant({ wallet: true });
  });
  after(async () => h?.close());

  const read = (merchantId: string, id: string, caller: 'service' | 'api_key' = 'service') =>
    h.call('GET', `/internal/merchants/${merchantId}/payments/${id}`, {
      caller,
      merchantId: caller === 'service' ? undefined : merchantId,
    });

  it('answers the payment as it is now, pending and then completed as payment.completed tells it', async () => {
    const observer = await h.observe(['payment.completed']);
    try {
      const body = paymentBody(shop, { amount: '40', expectedAmount: '40' });
      const made = await h.call('POST', '/payments/create-public', { body });
      expect(made.status).to.equal(201);
      const id = made.body.data.paymentId as string;

      const pending = await read(shop.merchantId, id);
      expect(pending.status).to.equal(200);
      expect(pending.headers.get('cache-control')).to.equal('no-store');
      expect(InternalPaymentResponse.parse(pending.body).data).to.include({
        payment_id: id,
        merchant_id: shop.merchantId,
        amount: '40.000000',
        status: 'pending',
        completed_at: null,
        is_cross_chain: false,
      });

      await h.publish(
        'chain.payment.verified',
        {
          paymentId: id,
          txHash: body.txHash as string,
          chainId: body.chainId as number,
          token: 'USDC',
          fromAddress: body.fromAddress as string,
          toAddress: body.toAddress as string,
          receivedAmount: '40',
          blockNumber: 120,
          blockTimestamp: new Date().toISOString(),
          confirmations: 1,
        },
        { producer: 'chain-watcher', merchantId: shop.merchantId },
      );
      const event = await waitFor(async () => observer.messages.find((m) => m.data.payment_id === id));
      const completed = InternalPaymentResponse.parse((await read(shop.merchantId, id)).body).data;
      const told = PaymentCompletedData.parse(event.data);
      // The same facts the refunds service would have projected from the event.
      expect(completed).to.deep.include({
        status: 'completed',
        amount: told.amount,
        currency: told.currency,
        tx_hash: told.tx_hash,
        from_address: told.from_address,
        source_chain: told.source_chain,
        destination_chain: told.destination_chain,
        completed_at: told.completed_at,
        created_at: told.created_at,
      });
    } finally {
      await observer.close();
    }
  });

  it("answers 404 for another merchant's payment and for an unknown id", async () => {
    const made = await h.call('POST', '/payments/create-public', { body: paymentBody(shop) });
    const id = made.body.data.paymentId as string;
    const foreign = await read(other.merchantId, id);
    expect(foreign.status).to.equal(404);
    expect(foreign.body.success).to.equal(false);
    expect((await read(shop.merchantId, randomUUID())).status).to.equal(404);
  });

  it('takes service tokens only', async () => {
    const made = await h.call('POST', '/payments/create-public', { body: paymentBody(shop) });
    const id = made.body.data.paymentId as string;
    const asMerchant = await read(shop.merchantId, id, 'api_key');
    expect(asMerchant.status).to.be.oneOf([401, 403]);
    const anonymous = await h.call('GET', `/internal/merchants/${shop.merchantId}/payments/${id}`, {
      anonymous: true,
    });
    expect(anonymous.status).to.equal(401);
  });
});
