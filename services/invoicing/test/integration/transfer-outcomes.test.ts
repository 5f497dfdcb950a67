import { expect } from 'chai';
import { waitFor, type EventObserver } from '@stablepay/platform/testing';
import { randomTxHash, startHarness, type Harness, type TestMerchant } from '../support/harness.js';

/**
 * The chain-watcher's side is played by the test: it publishes transfer outcomes with the addressed
 * routing key (`transfer.confirmed.withdrawal`), as its relay does.
 */
describe('withdrawal transfer outcomes (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let m: TestMerchant;
  let observer: EventObserver;

  before(async () => {
    h = await startHarness();
    m = h.merchant({ USDC: '100000', EURC: '100000' });
    observer = await h.observe(['withdrawal.completed', 'withdrawal.failed', 'invoice.issued']);
  });
  after(async () => {
    await observer?.close();
    await h?.close();
  });

  const eventsAbout = (type: string, withdrawalId: string) =>
    observer.messages.filter((e) => e.type === type && e.data.withdrawalId === withdrawalId);
  const handled = (eventId: string) =>
    waitFor(() => h.db('inbox').where({ consumer: 'invoicing', message_id: eventId }).first());
  const invoicesOf = (withdrawalId: string) => h.db('invoices').where({ withdrawal_id: withdrawalId });

  it('is processing once a transfer is submitted, completes when both are confirmed, and issues one invoice', async () => {
    const w = await h.withdraw(m, { amount: '100' });
    const net = await h.report(m, w.id, 'net', 'submitted');
    const processing = await h.waitForStatus(m, w.id, 'processing');
    expect(processing.tx_hash).to.equal(net);
    await h.report(m, w.id, 'net', 'confirmed', { txHash: net });
    const fee = await h.report(m, w.id, 'fee', 'confirmed'); // its submission overtaken
    const done = await h.waitForStatus(m, w.id, 'completed');
    expect(done).to.include({ tx_hash: net, fee_tx_hash: fee, failure_reason: null });
    expect(done.completed_at).to.be.a('string');
    const invoice = await h.waitForInvoice(m, w.id);
    expect(
      done.invoice_id ?? (await h.as(m, 'GET', `/withdrawals/api/${w.id}`)).body.data.invoice_id,
    ).to.equal(invoice.id);

    const completed = await waitFor(async () => eventsAbout('withdrawal.completed', w.id)[0]);
    expect(completed.data).to.include({
      amount: '100.000000',
      fee: '0.500000',
      netAmount: '99.500000',
      txHash: net,
      feeTxHash: fee,
    });
    const issued = await waitFor(async () => eventsAbout('invoice.issued', w.id)[0]);
    expect(issued.data).to.include({
      invoiceId: invoice.id,
      invoiceNumber: invoice.invoice_number,
      serviceFee: '0.500000',
    });
  });

  it('completes once and issues one invoice however often the outcomes are delivered, in any order', async () => {
    const w = await h.withdraw(m, { amount: '40' });
    const fee = randomTxHash();
    const net = randomTxHash();
    await h.report(m, w.id, 'fee', 'confirmed', { txHash: fee, times: 3 });
    await h.report(m, w.id, 'net', 'submitted', { txHash: net, times: 2 });
    await h.report(m, w.id, 'net', 'confirmed', { txHash: net, times: 3 });
    await h.report(m, w.id, 'fee', 'submitted', { txHash: fee });
    await h.waitForStatus(m, w.id, 'completed');
    await h.waitForInvoice(m, w.id);
    await waitFor(async () => eventsAbout('invoice.issued', w.id).length === 1);
    expect(await invoicesOf(w.id)).to.have.length(1);
    expect(eventsAbout('withdrawal.completed', w.id)).to.have.length(1);
  });

  it('fails with the reason when a transfer fails, says what moved, and issues no invoice', async () => {
    const w = await h.withdraw(m, { amount: '20' });
    const net = await h.report(m, w.id, 'net', 'confirmed');
    // Outcomes are handled concurrently; this one is about the order net first, fee after.
    await waitFor(
      async () => (await h.db('withdrawals').where({ id: w.id }).first()).net_state === 'confirmed',
    );
    await h.report(m, w.id, 'fee', 'failed', {
      reason: 'insufficient funds: the merchant wallet holds 0 USDC',
    });
    const failed = await h.waitForStatus(m, w.id, 'failed');
    expect(failed.failure_reason).to.equal(
      `The fee transfer failed: insufficient funds: the merchant wallet holds 0 USDC; the transfer to the destination was confirmed (${net})`,
    );
    const event = await waitFor(async () => eventsAbout('withdrawal.failed', w.id)[0]);
    expect(event.data).to.include({ reason: failed.failure_reason, txHash: net, feeTxHash: null });
    expect(await invoicesOf(w.id)).to.have.length(0);
  });

  it('keeps the first failure and records a later outcome of the other transfer without completing', async () => {
    const w = await h.withdraw(m, { amount: '20' });
    await h.report(m, w.id, 'net', 'failed', { reason: 'reverted' });
    await h.waitForStatus(m, w.id, 'failed');
    const event = await h.report(m, w.id, 'fee', 'confirmed');
    await waitFor(
      async () => (await h.db('withdrawals').where({ id: w.id }).first()).fee_state === 'confirmed',
    );
    const after = (await h.as(m, 'GET', `/withdrawals/api/${w.id}`)).body.data;
    expect(after).to.include({
      status: 'failed',
      failure_reason: 'The transfer to the destination failed: reverted',
      fee_tx_hash: event,
    });
    expect(await invoicesOf(w.id)).to.have.length(0);
  });

  it('drops outcomes whose key names no withdrawal (logged, not retried)', async () => {
    const stray = await h.publish(
      'transfer.confirmed',
      { idempotencyKey: 'refund-like-key', purpose: 'withdrawal', txHash: randomTxHash(), blockNumber: 1 },
      { producer: 'chain-watcher', merchantId: m.merchantId },
    );
    await handled(stray.id);
    const unknown = await h.publish(
      'transfer.confirmed',
      {
        idempotencyKey: 'withdrawal:00000000-0000-4000-8000-000000000000:net',
        purpose: 'withdrawal',
        txHash: randomTxHash(),
        blockNumber: 1,
      },
      { producer: 'chain-watcher', merchantId: m.merchantId },
    );
    await handled(unknown.id);
  });

  it('never receives the outcomes of refunds', async () => {
    const w = await h.withdraw(m, { amount: '10' });
    await h.report(m, w.id, 'net', 'confirmed', { purpose: 'refund' });
    await h.report(m, w.id, 'fee', 'confirmed', { purpose: 'refund' });
    // A withdrawal's outcome published after them is applied; theirs are never routed here.
    await h.report(m, w.id, 'fee', 'submitted');
    await h.waitForStatus(m, w.id, 'processing');
    expect(await h.db('withdrawals').where({ id: w.id }).first()).to.include({
      net_state: 'requested',
      fee_state: 'submitted',
    });
  });
});
