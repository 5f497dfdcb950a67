import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { TransferPurpose } from '@stablepay/contracts';
import { waitFor, type EventObserver } from '@stablepay/platform/testing';
import {
  createRefund,
  newMerchant,
  randomTxHash,
  refundRow,
  startHarness,
  waitForMessage,
  waitForStatus,
  type Harness,
  type SeededPayment,
  type TestMerchant,
} from '../support/harness.js';

/**
 * The chain-watcher's side is played by the test: it takes transfer.requested from its own queue on
 * the run's exchange and answers with transfer.submitted / confirmed / failed.
 */
describe('refund transfer outcomes (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;
  let observer: EventObserver;

  before(async () => {
    h = await startHarness({ REFUND_HOLD_SECONDS: '0', DISPATCH_POLL_MS: '50' });
    shop = newMerchant();
    h.balances.setBalance(shop.merchantId, { USDC: '100000', EURC: '100000' });
    observer = await h.observe(['transfer.requested', 'refund.completed', 'refund.failed']);
  });
  after(async () => {
    await observer?.close();
    await h?.close();
  });

  /** Published as the chain-watcher's relay does: routed to the requester named by `purpose`. */
  type As = { purpose?: TransferPurpose; times?: number };
  const byChainWatcher = (times?: number) => ({
    producer: 'chain-watcher' as const,
    merchantId: shop.merchantId,
    times,
  });
  const submitted = (refundId: string, txHash: string, { purpose = 'refund', times }: As = {}) =>
    h.publish(
      'transfer.submitted',
      { idempotencyKey: refundId, purpose, txHash, blockchain: 'BASE' },
      byChainWatcher(times),
    );
  const confirmed = (refundId: string, txHash: string, { purpose = 'refund', times }: As = {}) =>
    h.publish(
      'transfer.confirmed',
      { idempotencyKey: refundId, purpose, txHash, blockNumber: 42 },
      byChainWatcher(times),
    );
  const failed = (refundId: string, reason: string, { purpose = 'refund', times }: As = {}) =>
    h.publish(
      'transfer.failed',
      { idempotencyKey: refundId, purpose, reason, code: 'reverted', txHash: null },
      byChainWatcher(times),
    );

  /** A refund the dispatcher has sent: processing, with its transfer command received. */
  const processingRefund = async (amount = '25'): Promise<{ id: string; p: SeededPayment }> => {
    const p = await h.seedPayment(shop, { amount });
    const id = await createRefund(h, p);
    await waitForStatus(h, p, id, 'processing');
    await waitFor(async () =>
      observer.messages.some((m) => m.type === 'transfer.requested' && m.data.idempotencyKey === id),
    );
    return { id, p };
  };
  const handled = (eventId: string) =>
    waitFor(() => h.db('inbox').where({ consumer: 'refunds', message_id: eventId }).first());
  const cancel = (id: string) => h.call('POST', `/refunds/api/${id}/cancel`, { ...shop });

  it('records the hash on submission, completes on confirmation and publishes refund.completed once', async () => {
    const { id, p } = await processingRefund();
    const txHash = randomTxHash();
    const sub = await submitted(id, txHash);
    await handled(sub.id);
    const during = (await h.call('GET', `/refunds/api/${id}`, { ...shop })).body.data;
    expect(during).to.include({ status: 'processing', tx_hash: txHash, completed_at: null });
    const found = await h.call('GET', `/refunds/api/list?search=${txHash.slice(10, 30).toUpperCase()}`, {
      ...shop,
    });
    expect(found.body.data.refunds.map((r: { id: string }) => r.id)).to.deep.equal([id]);
    const refused = await cancel(id);
    expect(refused.status).to.equal(409);
    expect(refused.body.error).to.equal('Refund is processing and can no longer be cancelled');

    // Delivered three times, then confirmed again under a new event id: one effect, one event.
    await confirmed(id, txHash, { times: 3 });
    const done = await waitForStatus(h, p, id, 'completed');
    expect(done.tx_hash).to.equal(txHash);
    expect(Date.parse(done.completed_at)).to.be.closeTo(Date.now(), 60_000);
    const again = await confirmed(id, txHash);
    await handled(again.id);
    // A late submission changes nothing either.
    const late = await submitted(id, randomTxHash());
    await handled(late.id);
    await observer.drain();
    const events = observer.messages.filter((m) => m.type === 'refund.completed' && m.data.refund_id === id);
    expect(events).to.have.length(1);
    expect(events[0]!.data).to.deep.include({
      refund_id: id,
      merchant_id: shop.merchantId,
      payment_id: p.id,
      status: 'completed',
      amount: '25.000000',
      tx_hash: txHash,
      destination_address: p.fromAddress,
    });
    expect(events[0]!.data).not.to.have.property('failure_reason');
    expect((await refundRow(h, id)).tx_hash).to.equal(txHash);
    expect((await cancel(id)).status).to.equal(409);
  });

  it("fails with the chain-watcher's reason, publishes refund.failed and frees the amount", async () => {
    const { id, p } = await processingRefund('12');
    await failed(id, 'Transfer reverted on-chain', { times: 2 });
    const d = await waitForStatus(h, p, id, 'failed');
    expect(d).to.include({ failure_reason: 'Transfer reverted on-chain', tx_hash: null, completed_at: null });
    const event = await waitForMessage(observer, id, 'refund.failed');
    expect(event.data).to.deep.include({
      status: 'failed',
      failure_reason: 'Transfer reverted on-chain',
      tx_hash: null,
    });
    expect((await cancel(id)).status).to.equal(409);
    // A confirmation after the failure is dropped, not retried.
    const stray = await confirmed(id, randomTxHash());
    await handled(stray.id);
    expect((await refundRow(h, id)).status).to.equal('failed');
    await observer.drain();
    expect(
      observer.messages.filter((m) => m.type === 'refund.failed' && m.data.refund_id === id),
    ).to.have.length(1);
    // The failed refund no longer counts: the whole amount can be refunded again.
    const retry = await createRefund(h, p);
    expect((await refundRow(h, retry)).amount).to.equal('12.000000');
  });

  it('never receives the transfer outcomes of withdrawals and CCTP forwards', async () => {
    const { id } = await processingRefund();
    const elsewhere = await h.observe(['transfer.*.withdrawal', 'transfer.*.cctp_forward']);
    try {
      const others = [
        await confirmed(id, randomTxHash(), { purpose: 'withdrawal' }),
        await failed(id, 'not ours', { purpose: 'cctp_forward' }),
        await submitted(id, randomTxHash(), { purpose: 'withdrawal' }),
      ];
      // They were on the exchange, and an outcome addressed to refunds published after them has
      // been handled: had they been routed to refunds, they would have been handled by now too.
      await waitFor(async () => elsewhere.messages.length === others.length);
      await handled((await submitted(randomUUID(), randomTxHash())).id);
      for (const e of others)
        expect(await h.db('inbox').where({ consumer: 'refunds', message_id: e.id }).first(), e.type).to.equal(
          undefined,
        );
      expect(await refundRow(h, id)).to.include({
        status: 'processing',
        tx_hash: null,
        failure_reason: null,
      });
      expect(await h.bus.peekDeadLetters('refunds')).to.deep.equal([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('drops an outcome for a refund that was never sent instead of retrying it', async () => {
    const stranger = newMerchant(); // no wallet: its refund stays pending
    const p = await h.seedPayment(stranger);
    const id = await createRefund(h, p);
    const conf = await confirmed(id, randomTxHash());
    const unknown = await failed('not-a-refund-id', 'whatever');
    await handled(conf.id);
    await handled(unknown.id);
    expect((await refundRow(h, id)).status).to.equal('pending');
    expect(await h.bus.peekDeadLetters('refunds')).to.deep.equal([]);
  });
});
