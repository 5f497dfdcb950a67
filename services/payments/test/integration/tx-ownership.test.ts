import { expect } from 'chai';
import { Wallet } from 'ethers';
import type { ChainPaymentRejectedData } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { actingAs, paymentBody, startHarness, type Harness, type TestMerchant } from '../support/harness.js';
import { proveSession } from '../support/session-proof.js';

/**
 * A transaction belongs to the payment it proves, not to whoever reports it first: a report the
 * chain does not bear out never owns the hash, and a stranger's pending report does not keep the
 * payer's genuine one out.
 */
describe('who a reported transaction belongs to (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let a: TestMerchant;
  let b: TestMerchant;

  before(async () => {
    h = await startHarness();
    a = await h.seedMerchant({ wallet: true });
    b = await h.seedMerchant({ wallet: true });
  });
  after(async () => h?.close());

  const create = (body: Record<string, unknown>) => h.call('POST', '/payments/create-public', { body });
  const detail = async (m: TestMerchant, id: string) =>
    (await h.call('GET', `/payments/api/${id}`, actingAs(m))).body.data;
  const rejectAs = async (
    m: TestMerchant,
    id: string,
    txHash: string,
    reason: ChainPaymentRejectedData['reason'],
  ) => {
    await h.publish(
      'chain.payment.rejected',
      { paymentId: id, txHash, reason, receivedAmount: null, detail: `refuted: ${reason}` },
      { producer: 'chain-watcher', merchantId: m.merchantId },
    );
    await waitFor(async () => (await detail(m, id)).status === 'failed');
  };

  it("takes the payer's report under merchant A while a stranger's report under B is pending, and after B's failed wrong_recipient", async () => {
    const genuine = paymentBody(a);
    const stranger = await create({ ...paymentBody(b), txHash: genuine.txHash });
    expect(stranger.status).to.equal(201);
    // Still pending under B: the chain decides; A's report is a payment of its own.
    const first = await create(genuine);
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.body.data.paymentId).not.to.equal(stranger.body.data.paymentId);
    await rejectAs(b, stranger.body.data.paymentId, genuine.txHash as string, 'wrong_recipient');
    // A's report again is A's payment, as always.
    const again = await create(genuine);
    expect(again.status).to.equal(200);
    expect(again.body.data.paymentId).to.equal(first.body.data.paymentId);
  });

  it("lets A's genuine report in after a stranger's report under B already failed wrong_recipient", async () => {
    const genuine = paymentBody(a);
    const stranger = await create({ ...paymentBody(b), txHash: genuine.txHash });
    await rejectAs(b, stranger.body.data.paymentId, genuine.txHash as string, 'wrong_recipient');
    const mine = await create(genuine);
    expect(mine.status, JSON.stringify(mine.body)).to.equal(201);
    expect(mine.body.data.paymentId).not.to.equal(stranger.body.data.paymentId);
  });

  it('refuses a transaction that completed another merchant’s payment (409)', async () => {
    const genuine = paymentBody(a);
    const paid = await create(genuine);
    await h.publish(
      'chain.payment.verified',
      {
        paymentId: paid.body.data.paymentId,
        txHash: genuine.txHash,
        chainId: genuine.chainId,
        token: 'USDC',
        fromAddress: genuine.fromAddress,
        toAddress: genuine.toAddress,
        receivedAmount: String(genuine.amount),
        blockNumber: 7,
        blockTimestamp: new Date().toISOString(),
        confirmations: 1,
      },
      { producer: 'chain-watcher', merchantId: a.merchantId },
    );
    await waitFor(async () => (await detail(a, paid.body.data.paymentId)).status === 'completed');
    const late = await create({ ...paymentBody(b), txHash: genuine.txHash });
    expect(late.status).to.equal(409);
    expect(late.body.details[0]).to.include({ path: 'txHash', code: 'tx_already_recorded' });
  });

  it("gives the payer's proven report its session after a stranger's report with the wrong sender failed", async () => {
    const session = await h.call('POST', '/checkout/sessions', {
      ...actingAs(a),
      body: { amount: 42, return_url: 'https://shop.example/r' },
    });
    const sessionId = session.body.data.id as string;
    const payer = Wallet.createRandom();
    const proven = proveSession(paymentBody(a, { amount: '42', expectedAmount: '42', sessionId }), payer);
    const stranger = await create({
      ...paymentBody(a, { amount: '42', expectedAmount: '42' }),
      txHash: proven.txHash,
      customerEmail: 'stranger@example.com',
    });
    expect(stranger.status).to.equal(201);
    await rejectAs(a, stranger.body.data.paymentId, proven.txHash as string, 'wrong_sender');
    const mine = await create(proven);
    expect(mine.status, JSON.stringify(mine.body)).to.equal(201);
    const payment = await detail(a, mine.body.data.paymentId);
    expect(payment).to.include({ status: 'pending', customer_email: proven.customerEmail });
    const s = await h.call('GET', `/checkout/sessions/${sessionId}`, actingAs(a));
    expect(s.body.data.payment).to.include({ id: mine.body.data.paymentId });
  });

  it("replaces an unproven pending report's customer data with the proven report's", async () => {
    const session = await h.call('POST', '/checkout/sessions', {
      ...actingAs(a),
      body: { amount: 42, return_url: 'https://shop.example/r' },
    });
    const sessionId = session.body.data.id as string;
    const payer = Wallet.createRandom();
    const proven = proveSession(
      paymentBody(a, { amount: '42', expectedAmount: '42', sessionId, reference: 'order-7' }),
      payer,
    );
    const unproven = await create({
      ...paymentBody(a, { amount: '42', expectedAmount: '42', reference: 'stranger' }),
      txHash: proven.txHash,
      fromAddress: payer.address,
      customerEmail: 'stranger@example.com',
    });
    expect(unproven.status).to.equal(201);
    const mine = await create(proven);
    expect(mine.status).to.equal(200);
    expect(mine.body.data.paymentId).to.equal(unproven.body.data.paymentId);
    expect(await detail(a, mine.body.data.paymentId)).to.include({
      customer_email: proven.customerEmail,
      reference: 'order-7',
    });
  });
});
