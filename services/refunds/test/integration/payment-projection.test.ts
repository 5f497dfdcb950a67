import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { waitFor } from '@stablepay/platform/testing';
import {
  createRefund,
  newMerchant,
  paymentCompleted,
  randomAddress,
  randomTxHash,
  startHarness,
  type Harness,
  type SeededPayment,
  type TestMerchant,
} from '../support/harness.js';

describe('projection of completed payments (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;

  before(async () => {
    h = await startHarness();
    shop = newMerchant();
  });
  after(async () => h?.close());

  const projected = (id: string) => h.db('refundable_payments').where({ payment_id: id }).first();

  it('refunds a cross-chain payment from the chain the merchant received it on', async () => {
    const p = await h.seedPayment(shop, { crossChain: { source: 'ETH', destination: 'ARB' } });
    expect((await projected(p.id)).blockchain).to.equal('ARB');
    const res = await h.call('POST', '/refunds/api/create', {
      ...shop,
      body: { paymentId: p.id, reason: 'other' },
    });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ blockchain: 'ARB', destination_address: p.fromAddress });
  });

  it('projects a payment once, whatever is redelivered or repeated', async () => {
    const p = await h.seedPayment(shop, { amount: '10' });
    await createRefund(h, p, { amount: '4' });
    // The same event again, and a later completion claiming another amount: the first one stands.
    const repeat = await h.publish('payment.completed', paymentCompleted({ ...p, amount: '1.000000' }), {
      producer: 'payments',
      merchantId: shop.merchantId,
      times: 2,
    });
    await waitFor(() => h.db('inbox').where({ message_id: repeat.id }).first());
    expect((await projected(p.id)).amount).to.equal('10.000000');
    const rest = await h.call('POST', '/refunds/api/create', {
      ...shop,
      body: { paymentId: p.id, reason: 'other' },
    });
    expect(rest.body.data.amount).to.equal('6.000000');
  });

  it('dead-letters a completed payment that could never be refunded, with the reason', async () => {
    const p: SeededPayment = {
      id: randomUUID(),
      merchant: shop,
      amount: '5.000000',
      currency: 'USDC',
      fromAddress: randomAddress(),
      txHash: randomTxHash(),
      blockchain: 'BASE',
      completedAt: new Date().toISOString(),
    };
    const event = await h.publish('payment.completed', paymentCompleted(p, { sourceChain: 'DOGE' }), {
      producer: 'payments',
      merchantId: shop.merchantId,
    });
    const [dead] = await waitFor(async () => {
      const letters = await h.bus.peekDeadLetters('refunds');
      return letters.length > 0 ? letters : undefined;
    });
    expect(dead!.message.id).to.equal(event.id);
    expect(dead!.error).to.include('source_chain "DOGE" is not a known blockchain');
    expect(await projected(p.id)).to.equal(undefined);
  });
});
