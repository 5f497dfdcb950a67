import { expect } from 'chai';
import { Wallet } from 'ethers';
import { PaymentTopUpReportedData, PublicCheckoutSessionResponse } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import {
  actingAs,
  paymentBody,
  randomTxHash,
  startHarness,
  type Harness,
  type TestMerchant,
} from '../support/harness.js';
import { proveSession } from '../support/session-proof.js';

/**
 * A same-chain checkout payment that arrived short waits for the rest until its session expires;
 * the chain-watcher's verdicts arrive as real events over RabbitMQ.
 */
describe('top-ups of underpaid session payments (PostgreSQL + RabbitMQ)', function () {
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

  const fromChainWatcher = () => ({ producer: 'chain-watcher' as const, merchantId: shop.merchantId });

  const newSession = async (amount = 5) => {
    const res = await h.call('POST', '/checkout/sessions', {
      ...actingAs(shop),
      body: { amount, return_url: 'https://shop.example/r' },
    });
    expect(res.status).to.equal(201);
    return res.body.data.id as string;
  };

  const payShort = async (sessionId: string, received: string) => {
    const payer = Wallet.createRandom();
    const body = proveSession(
      paymentBody(shop, { sessionId, amount: '5', expectedAmount: '5' }),
      payer as unknown as Wallet,
    );
    const res = await h.call('POST', '/payments/create-public', { body });
    expect(res.status).to.equal(201);
    const paymentId = res.body.data.paymentId as string;
    await h.publish(
      'chain.payment.rejected',
      {
        paymentId,
        txHash: body.txHash as string,
        reason: 'underpaid',
        receivedAmount: received,
        detail: `received ${received} USDC, expected 5.000000`,
      },
      fromChainWatcher(),
    );
    await waitFor(async () => {
      const row = await h.db('payments').where({ id: paymentId }).first();
      return row.awaiting_top_up_until !== null || row.status !== 'pending' ? row : undefined;
    });
    return { paymentId, txHash: (body.txHash as string).toLowerCase(), payer: body.fromAddress as string };
  };

  const publicView = async (sessionId: string) => {
    const res = await h.call('GET', `/checkout/sessions/${sessionId}/public`);
    expect(res.status).to.equal(200);
    return PublicCheckoutSessionResponse.parse(res.body).data;
  };
  const report = (sessionId: string, txHash: string) =>
    h.call('POST', `/checkout/sessions/${sessionId}/top-ups`, { body: { txHash } });
  const verifyTopUp = (topUpId: string, paymentId: string, txHash: string, receivedAmount: string) =>
    h.publish(
      'chain.top_up.verified',
      {
        topUpId,
        paymentId,
        txHash,
        chainId: 31337,
        receivedAmount,
        blockNumber: 77,
        blockTimestamp: new Date().toISOString(),
      },
      fromChainWatcher(),
    );
  const detail = async (id: string, merchant = shop) =>
    h.call('GET', `/payments/api/${id}`, actingAs(merchant));
  const closeWindow = async (sessionId: string, paymentId: string) => {
    await h
      .db('checkout_sessions')
      .where({ id: sessionId })
      .update({ expires_at: h.db.raw(`now()`) });
    await h
      .db('payments')
      .where({ id: paymentId })
      .update({ awaiting_top_up_until: h.db.raw(`now()`) });
  };

  it('keeps an underpaid session payment pending and its session open, showing what is missing', async () => {
    const observer = await h.observe(['payment.failed']);
    try {
      const sessionId = await newSession();
      const { paymentId, payer } = await payShort(sessionId, '3');
      const view = await publicView(sessionId);
      expect(view.status).to.equal('open');
      expect(view.payment).to.deep.include({
        id: paymentId,
        status: 'pending',
        from_address: payer,
        received_amount: '3.000000',
        amount_due: '2.000000',
        top_up_until: view.expires_at,
        top_up_pending: false,
      });
      // No payment.failed went out for it.
      const later = await newSession();
      const q = await payShort(later, '0');
      await waitFor(async () => observer.messages.some((m) => m.data.payment_id === q.paymentId));
      expect(observer.messages.filter((m) => m.data.payment_id === paymentId)).to.have.length(0);
    } finally {
      await observer.close();
    }
  });

  it('completes the payment and its session when a verified top-up reaches the amount, listing both transfers', async () => {
    const observer = await h.observe([
      'payment.top_up.reported',
      'payment.completed',
      'checkout.session.completed',
    ]);
    try {
      const sessionId = await newSession();
      const { paymentId, txHash, payer } = await payShort(sessionId, '3');
      const topUpTx = randomTxHash();
      const first = await report(sessionId, topUpTx);
      expect(first.status).to.equal(201);
      expect(first.body.data).to.include({ payment_id: paymentId, tx_hash: topUpTx, status: 'pending' });
      // Idempotent on the transaction: the same top-up, no second event.
      const again = await report(sessionId, topUpTx.toUpperCase().replace('0X', '0x'));
      expect(again.status).to.equal(200);
      expect(again.body.data.id).to.equal(first.body.data.id);
      expect((await publicView(sessionId)).payment).to.include({ top_up_pending: true });
      const reported = await waitFor(async () =>
        observer.messages.find((m) => m.type === 'payment.top_up.reported' && m.data.paymentId === paymentId),
      );
      expect(PaymentTopUpReportedData.parse(reported.data)).to.deep.include({
        topUpId: first.body.data.id,
        txHash: topUpTx,
        chainId: 31337,
        fromAddress: payer,
        toAddress: shop.wallet,
      });

      await verifyTopUp(first.body.data.id, paymentId, topUpTx, '2.5');
      const done = await waitFor(async () => {
        const d = (await detail(paymentId)).body.data;
        return d.status === 'completed' ? d : undefined;
      });
      expect(done).to.include({ received_amount: '5.500000', surplus_amount: '0.500000' });
      expect(done.transfers).to.deep.equal([
        { tx_hash: txHash, amount: '3.000000', kind: 'payment', status: 'verified', block_number: null },
        { tx_hash: topUpTx, amount: '2.500000', kind: 'top_up', status: 'verified', block_number: 77 },
      ]);
      const completed = await waitFor(async () =>
        observer.messages.find((m) => m.type === 'payment.completed' && m.data.payment_id === paymentId),
      );
      expect(completed.data).to.include({ received_amount: '5.500000', surplus_amount: '0.500000' });
      await waitFor(async () =>
        observer.messages.find(
          (m) => m.type === 'checkout.session.completed' && m.data.sessionId === sessionId,
        ),
      );
      expect((await publicView(sessionId)).status).to.equal('complete');
      expect(
        observer.messages.filter(
          (m) => m.type === 'payment.top_up.reported' && m.data.paymentId === paymentId,
        ),
      ).to.have.length(1);
      // Another merchant cannot see the payment or its transfers.
      expect((await detail(paymentId, other)).status).to.equal(404);
      const dashboard = await h.call('GET', `/payments/${paymentId}`, { ...actingAs(shop), caller: 'user' });
      expect(dashboard.body.data.transfers).to.have.length(2);
      expect(
        (await h.call('GET', `/payments/${paymentId}`, { ...actingAs(other), caller: 'user' })).status,
      ).to.equal(404);
    } finally {
      await observer.close();
    }
  });

  it('fails the payment underpaid with the total received when the window closes short, and expires the session', async () => {
    const observer = await h.observe(['payment.failed', 'checkout.session.expired']);
    try {
      const sessionId = await newSession();
      const { paymentId } = await payShort(sessionId, '3');
      const topUp = await report(sessionId, randomTxHash());
      await verifyTopUp(topUp.body.data.id, paymentId, topUp.body.data.tx_hash, '1');
      const view = await waitFor(async () => {
        const v = await publicView(sessionId);
        return v.payment?.received_amount === '4.000000' ? v : undefined;
      });
      expect(view.payment).to.include({ status: 'pending', amount_due: '1.000000' });

      await closeWindow(sessionId, paymentId);
      const failed = await waitFor(async () =>
        observer.messages.find((m) => m.data.payment_id === paymentId),
      );
      expect(failed.data).to.include({
        status: 'failed',
        failure_reason: 'underpaid',
        received_amount: '4.000000',
      });
      await waitFor(async () =>
        observer.messages.find(
          (m) => m.type === 'checkout.session.expired' && m.data.sessionId === sessionId,
        ),
      );
      const d = (await detail(paymentId)).body.data;
      expect(d).to.include({ status: 'failed', received_amount: '4.000000' });
      expect(d.transfers.map((t: { amount: string }) => t.amount)).to.deep.equal(['3.000000', '1.000000']);
      expect((await publicView(sessionId)).status).to.equal('expired');
      expect((await report(sessionId, randomTxHash())).status).to.equal(409);
    } finally {
      await observer.close();
    }
  });

  it('waits for a top-up reported in time before closing the window, and fails when it is rejected', async () => {
    const sessionId = await newSession();
    const { paymentId } = await payShort(sessionId, '3');
    const topUp = await report(sessionId, randomTxHash());
    await closeWindow(sessionId, paymentId);
    // Several sweeps pass: the payment still waits for the verdict on its reported top-up.
    await new Promise((r) => setTimeout(r, 500));
    expect((await h.db('payments').where({ id: paymentId }).first()).status).to.equal('pending');
    await h.publish(
      'chain.top_up.rejected',
      {
        topUpId: topUp.body.data.id,
        paymentId,
        txHash: topUp.body.data.tx_hash,
        reason: 'wrong_sender',
        detail: 'no USDC transfer from the payer',
      },
      fromChainWatcher(),
    );
    const failed = await waitFor(async () => {
      const row = await h.db('payments').where({ id: paymentId }).first();
      return row.status === 'failed' ? row : undefined;
    });
    expect(failed.failure_reason).to.equal('underpaid');
    const d = (await detail(paymentId)).body.data;
    expect(d.transfers[1]).to.include({ kind: 'top_up', status: 'rejected', amount: null });
  });

  it('answers 404 for an unknown session and 409 when no payment awaits a top-up', async () => {
    const unknown = await report('cs_live_00000000-0000-4000-8000-000000000000', randomTxHash());
    expect(unknown.status).to.equal(404);
    const empty = await newSession();
    const none = await report(empty, randomTxHash());
    expect(none.status).to.equal(409);
    expect(none.body).to.include({
      success: false,
      error: 'This checkout session has no payment awaiting a top-up',
    });
    // A payment still being verified awaits nothing yet.
    const verifying = await newSession();
    const body = proveSession(paymentBody(shop, { sessionId: verifying, amount: '5', expectedAmount: '5' }));
    expect((await h.call('POST', '/payments/create-public', { body })).status).to.equal(201);
    expect((await report(verifying, randomTxHash())).status).to.equal(409);
    // A transaction is one top-up, and never the payment's own first transfer.
    const a = await newSession();
    const b = await newSession();
    const pa = await payShort(a, '1');
    await payShort(b, '1');
    const tx = randomTxHash();
    expect((await report(a, tx)).status).to.equal(201);
    expect((await report(b, tx)).status).to.equal(409);
    expect((await report(a, pa.txHash)).status).to.equal(400);
    const bad = await report(a, 'nope');
    expect(bad.status).to.equal(400);
  });

  it('still fails an underpaid payment without a session', async () => {
    const body = paymentBody(shop, { amount: '5', expectedAmount: '5' });
    const res = await h.call('POST', '/payments/create-public', { body });
    const paymentId = res.body.data.paymentId as string;
    await h.publish(
      'chain.payment.rejected',
      { paymentId, txHash: body.txHash as string, reason: 'underpaid', receivedAmount: '3', detail: 'short' },
      fromChainWatcher(),
    );
    const row = await waitFor(async () => {
      const r = await h.db('payments').where({ id: paymentId }).first();
      return r.status === 'failed' ? r : undefined;
    });
    expect(row.awaiting_top_up_until).to.equal(null);
  });
});
