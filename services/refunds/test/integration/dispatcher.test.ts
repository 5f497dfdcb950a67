import { expect } from 'chai';
import { quietLogger, waitFor, type EventObserver } from '@stablepay/platform/testing';
import type { DueRefund } from '../../src/dispatch/dispatch-repo.js';
import { decideDispatch } from '../../src/dispatch/decide-dispatch.js';
import { refundsRecording, type RefundsContext } from '../../src/context.js';
import {
  createRefund,
  newMerchant,
  refundRow,
  startHarness,
  waitForStatus,
  type Harness,
} from '../support/harness.js';

/** The dispatcher against a real HTTP balance server, with a one-second hold. */
describe('refund dispatcher (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let observer: EventObserver;

  before(async () => {
    h = await startHarness({ REFUND_HOLD_SECONDS: '1', DISPATCH_POLL_MS: '50' });
    observer = await h.observe(['transfer.requested']);
  });
  after(async () => {
    await observer?.close();
    await h?.close();
  });

  const transfersFor = (id: string) =>
    observer.messages.filter((m) => m.type === 'transfer.requested' && m.data.idempotencyKey === id);
  const detail = async (merchant: { merchantId: string }, id: string) =>
    (await h.call('GET', `/refunds/api/${id}`, { ...merchant })).body.data;

  it('holds a new refund, then sends it with one transfer.requested', async () => {
    const shop = newMerchant();
    h.balances.setBalance(shop.merchantId, { USDC: '500', EURC: '0' });
    const p = await h.seedPayment(shop, { amount: '40' });
    const id = await createRefund(h, p);
    await observer.drain();
    expect((await refundRow(h, id)).status).to.equal('pending');
    expect(transfersFor(id)).to.deep.equal([]);
    expect(h.balances.requestsFor(shop.merchantId)).to.deep.equal([]);

    await waitForStatus(h, p, id, 'processing');
    const row = await refundRow(h, id);
    expect(row.processing_at.getTime() - row.created_at.getTime()).to.be.at.least(1000);
    await waitFor(async () => transfersFor(id).length > 0);
    const [command] = transfersFor(id);
    expect(command).to.include({
      type: 'transfer.requested',
      producer: 'refunds',
      merchantId: shop.merchantId,
    });
    expect(command!.data).to.deep.equal({
      idempotencyKey: id,
      purpose: 'refund',
      merchantId: shop.merchantId,
      blockchain: 'BASE',
      token: 'USDC',
      amount: '40.000000',
      toAddress: p.fromAddress,
    });
    // The balance was asked for with a service token.
    expect(h.balances.requestsFor(shop.merchantId)[0]).to.deep.equal({
      merchantId: shop.merchantId,
      caller: 'service',
    });
  });

  it('waits while the wallet is short, stays cancellable, and sends once the funds are there', async () => {
    const shop = newMerchant();
    h.balances.setBalance(shop.merchantId, { USDC: '9.999999' });
    const p = await h.seedPayment(shop, { amount: '20' });
    const id = await createRefund(h, p, { amount: '10' });
    const spare = await createRefund(h, p, { amount: '10' });
    const waiting = await waitFor(async () => {
      const d = await detail(shop, id);
      return d.waiting_for_funds ? d : undefined;
    });
    expect(waiting.status).to.equal('pending');
    const checks = h.balances.requestsFor(shop.merchantId).length;
    await waitFor(async () => h.balances.requestsFor(shop.merchantId).length > checks + 1);
    expect((await h.call('POST', `/refunds/api/${spare}/cancel`, { ...shop })).status).to.equal(200);

    h.balances.setBalance(shop.merchantId, { USDC: '10' });
    const sent = await waitForStatus(h, p, id, 'processing');
    expect(sent.waiting_for_funds).to.equal(false);
    await waitFor(async () => transfersFor(id).length === 1);
    expect(transfersFor(spare)).to.deep.equal([]);
  });

  it('counts refunds already processing in the same token against the balance', async () => {
    const shop = newMerchant();
    h.balances.setBalance(shop.merchantId, { USDC: '100', EURC: '100' });
    const a = await h.seedPayment(shop, { amount: '60' });
    const b = await h.seedPayment(shop, { amount: '60' });
    const e = await h.seedPayment(shop, { amount: '60', currency: 'EURC' });
    const first = await createRefund(h, a);
    const second = await createRefund(h, b);
    const euro = await createRefund(h, e);
    await waitForStatus(h, a, first, 'processing');
    await waitForStatus(h, e, euro, 'processing');
    await waitFor(async () => (await detail(shop, second)).waiting_for_funds);
    expect((await refundRow(h, second)).status).to.equal('pending');

    h.balances.setBalance(shop.merchantId, { USDC: '120', EURC: '100' });
    await waitForStatus(h, b, second, 'processing');
  });

  it('waits for funds when the merchant has no wallet', async () => {
    const shop = newMerchant();
    const p = await h.seedPayment(shop);
    const id = await createRefund(h, p);
    await waitFor(async () => (await detail(shop, id)).waiting_for_funds);
    expect(h.balances.requestsFor(shop.merchantId).length).to.be.at.least(1);
  });

  it('keeps refunds pending and backs off while the chain-watcher fails, then sends them', async () => {
    const shop = newMerchant();
    h.balances.setBalance(shop.merchantId, { USDC: '1000' });
    h.balances.failing = true;
    try {
      const p = await h.seedPayment(shop);
      const id = await createRefund(h, p);
      const row = await waitFor(async () => {
        const r = await refundRow(h, id);
        return r.dispatch_failures >= 3 ? r : undefined;
      });
      expect(row).to.include({ status: 'pending', waiting_for_funds: false });
      expect(row.dispatch_not_before.getTime()).to.be.greaterThan(Date.now() - 1000);
      h.balances.failing = false;
      await waitForStatus(h, p, id, 'processing');
      expect((await refundRow(h, id)).dispatch_failures).to.equal(0);
    } finally {
      h.balances.failing = false;
    }
  });

  it('lets one of racing decisions through, per refund and per balance', async () => {
    // Two replicas deciding at once (an expired lease, a slow pass): no wallet is set up for this
    // merchant, so the service's own dispatcher only ever finds it short.
    const shop = newMerchant();
    const p = await h.seedPayment(shop, { amount: '100' });
    const [a, b] = [await createRefund(h, p, { amount: '60' }), await createRefund(h, p, { amount: '40' })];
    const ctx: RefundsContext = {
      db: h.db,
      logger: quietLogger('race'),
      refundWindowDays: 180,
      now: () => new Date(),
      payments: { currentPayment: async () => null },
      ...refundsRecording(() => undefined),
    };
    const rows = await h.db('refunds').whereIn('id', [a, b]);
    const due = (id: string): DueRefund => {
      const r = rows.find((x) => x.id === id)!;
      return {
        id,
        merchantId: shop.merchantId,
        currency: 'USDC',
        amount: r.amount,
        blockchain: 'BASE',
        createdAt: r.created_at,
        claimedAt: new Date(),
        correlationId: null,
      };
    };
    const same = await Promise.all(
      Array.from({ length: 6 }, () => decideDispatch(ctx, due(a), '1000', { recheckMs: 50 })),
    );
    expect(same.filter((d) => d === 'dispatched')).to.have.length(1);
    expect(same.filter((d) => d === 'gone')).to.have.length(5);
    // 60 is processing now; 100 covers another 40 but not two of them.
    const c = await createRefund(h, await h.seedPayment(shop, { amount: '40' }));
    const cRow = await refundRow(h, c);
    const both = await Promise.all([
      decideDispatch(ctx, due(b), '100', { recheckMs: 50 }),
      decideDispatch(ctx, { ...due(b), id: c, amount: cRow.amount, createdAt: cRow.created_at }, '100', {
        recheckMs: 50,
      }),
    ]);
    expect([...both].sort()).to.deep.equal(['dispatched', 'waiting']);
    const commands = await h
      .db('outbox')
      .where({ type: 'transfer.requested' })
      .whereRaw("envelope->'data'->>'merchantId' = ?", [shop.merchantId]);
    expect(commands).to.have.length(2);
  });

  it('publishes exactly one transfer.requested per refund with two replicas dispatching', async () => {
    await h.startReplica();
    const shop = newMerchant();
    h.balances.setBalance(shop.merchantId, { USDC: '10000' });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const p = await h.seedPayment(shop, { amount: '30' });
      for (let j = 0; j < 3; j++) ids.push(await createRefund(h, p, { amount: '10' }));
    }
    await waitFor(async () => {
      const rows = await h.db('refunds').whereIn('id', ids).andWhere({ status: 'processing' });
      return rows.length === ids.length;
    });
    await waitFor(async () => ids.every((id) => transfersFor(id).length > 0));
    await observer.drain();
    for (const id of ids) expect(transfersFor(id), id).to.have.length(1);
    const commands = await h
      .db('outbox')
      .where({ type: 'transfer.requested' })
      .whereRaw("envelope->'data'->>'merchantId' = ?", [shop.merchantId]);
    expect(commands).to.have.length(ids.length);
  });
});
