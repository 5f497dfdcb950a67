import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Withdrawal, WithdrawalListResponse } from '@stablepay/contracts';
import { waitFor, type EventObserver } from '@stablepay/platform/testing';
import {
  TREASURY,
  randomAddress,
  startHarness,
  type Harness,
  type TestMerchant,
} from '../support/harness.js';

describe('withdrawals: create, list, detail (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let observer: EventObserver;

  before(async () => {
    h = await startHarness();
    observer = await h.observe(['transfer.requested', 'withdrawal.*']);
  });
  after(async () => {
    await observer?.close();
    await h?.close();
  });

  const commandsFor = (withdrawalId: string) =>
    observer.messages.filter(
      (m) =>
        m.type === 'transfer.requested' &&
        String(m.data.idempotencyKey).startsWith(`withdrawal:${withdrawalId}:`),
    );
  // An approved destination unless the body names one: these refusals are about everything else.
  const refused = async (m: TestMerchant, body: Record<string, unknown>, status: number) => {
    const destination = 'destination_address' in body ? undefined : (await h.approve(m)).address;
    const res = await h.as(m, 'POST', '/withdrawals/api/create', {
      currency: 'USDC',
      destination_address: destination,
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(res.body.success).to.equal(false);
    return res.body as { error: string; details: Array<{ path: string; code: string; message: string }> };
  };
  const withdrawalRows = (m: TestMerchant) => h.db('withdrawals').where({ merchant_id: m.merchantId });

  it('requests a withdrawal: the fee split off at 0.5 %, both transfers commanded, withdrawal.requested', async () => {
    const m = h.merchant({ USDC: '1000' });
    const destination: string = (await h.approve(m)).address;
    const res = await h.as(m, 'POST', '/withdrawals/api/create', {
      amount: '200',
      currency: 'USDC',
      destination_address: destination,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const w = Withdrawal.parse(res.body.data);
    expect(w).to.deep.include({
      amount: '200.000000',
      fee: '1.000000',
      net_amount: '199.000000',
      currency: 'USDC',
      blockchain: 'BASE',
      destination_address: destination,
      status: 'requested',
      tx_hash: null,
      fee_tx_hash: null,
      failure_reason: null,
      invoice_id: null,
      completed_at: null,
    });
    const commands = await waitFor(async () =>
      commandsFor(w.id).length === 2 ? commandsFor(w.id) : undefined,
    );
    const byKey = Object.fromEntries(commands.map((c) => [c.data.idempotencyKey, c.data]));
    expect(byKey[`withdrawal:${w.id}:net`]).to.deep.equal({
      idempotencyKey: `withdrawal:${w.id}:net`,
      purpose: 'withdrawal',
      merchantId: m.merchantId,
      blockchain: 'BASE',
      token: 'USDC',
      amount: '199.000000',
      toAddress: destination,
    });
    expect(byKey[`withdrawal:${w.id}:fee`]).to.include({
      amount: '1.000000',
      toAddress: TREASURY,
      purpose: 'withdrawal',
    });
    const requested = await waitFor(async () =>
      observer.messages.find((e) => e.type === 'withdrawal.requested' && e.data.withdrawalId === w.id),
    );
    expect(requested.data).to.include({ amount: '200.000000', fee: '1.000000', netAmount: '199.000000' });
  });

  it('takes everything available when no amount is given, and the minimum fee below 20 tokens', async () => {
    const m = h.merchant({ USDC: '12.345678' });
    const all = await h.withdraw(m);
    expect(all).to.include({ amount: '12.345678', fee: '0.100000', net_amount: '12.245678' });
    // Nothing is left until those transfers settle.
    const none = await refused(m, {}, 422);
    expect(none.details[0]).to.include({ path: 'amount', code: 'nothing_available' });
  });

  it('serves the dashboard route the same way', async () => {
    const m = h.merchant({ EURC: '50' });
    const res = await h.as(
      m,
      'POST',
      '/withdrawals',
      { amount: '50', currency: 'EURC', destination_address: (await h.approve(m)).address },
      'jwt',
    );
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ currency: 'EURC', fee: '0.250000', net_amount: '49.750000' });
    const detail = await h.as(m, 'GET', `/withdrawals/${res.body.data.id}`, undefined, 'jwt');
    expect(detail.body.data).to.deep.equal(res.body.data);
    // An API key cannot use the dashboard route, nor a session the key route.
    expect((await h.as(m, 'GET', '/withdrawals')).status).to.equal(403);
    expect((await h.as(m, 'GET', '/withdrawals/api/list', undefined, 'jwt')).status).to.equal(403);
  });

  it('refuses, in the envelope and with nothing moved, what cannot be withdrawn', async () => {
    const m = h.merchant({ USDC: '100' });
    let e = await refused(m, { amount: '100.000001' }, 422);
    expect(e.details[0]).to.include({ path: 'amount', code: 'amount_exceeds_available' });
    expect(e.details[0]!.message).to.contain('100.000000 USDC');

    e = await refused(m, { currency: 'EURC' }, 422);
    expect(e.details[0]).to.include({ path: 'currency', code: 'unsupported_token' });
    expect(e.error).to.equal('EURC is not available on BASE');

    e = await refused(m, { blockchain: 'ETH' }, 422);
    expect(e.details[0]).to.include({ path: 'blockchain', code: 'unsupported_chain' });

    e = await refused(m, { amount: '0.1' }, 422);
    expect(e.details[0]).to.include({ path: 'amount', code: 'amount_below_fee' });

    // The zero address can never be on the address book.
    e = await refused(m, { destination_address: '0x0000000000000000000000000000000000000000' }, 422);
    expect(e.details[0]).to.include({ path: 'destination_address', code: 'destination_not_approved' });
    await h.approve(m, m.wallet, 'Own wallet');
    e = await refused(m, { destination_address: m.wallet }, 422);
    expect(e.details[0]).to.include({ path: 'destination_address', code: 'invalid_destination' });

    e = await refused(m, { destination_address: '0x12345' }, 400);
    expect(e.details.map((d) => d.path)).to.deep.equal(['destination_address']);
    e = await refused(m, { currency: 'USDT' }, 400);
    expect(e.details.map((d) => d.path)).to.deep.equal(['currency']);
    e = await refused(m, { blockchain: 'SOLANA' }, 400);
    expect(e.details.map((d) => d.path)).to.deep.equal(['blockchain']);
    e = await refused(m, { amount: '-1' }, 400);
    expect(e.details.map((d) => d.path)).to.deep.equal(['amount']);

    // A confirmed merchant the chain-watcher has no wallet for yet.
    const walletless = h.merchant();
    h.balances.removeWallet(walletless.merchantId);
    e = await refused(walletless, {}, 422);
    expect(e.details[0]).to.include({ code: 'no_wallet' });
    // A merchant this service has never heard of has confirmed nothing: refused before anything else.
    const stranger = { merchantId: randomUUID(), wallet: randomAddress() };
    e = await refused(stranger, {}, 403);
    expect(e.details[0]).to.include({ code: 'email_not_confirmed' });

    h.balances.failing = true;
    try {
      e = await refused(m, {}, 503);
      expect(e.error).to.match(/balance cannot be read/);
    } finally {
      h.balances.failing = false;
    }
    expect(await withdrawalRows(m)).to.have.length(0);
    expect(await withdrawalRows(stranger)).to.have.length(0);
    expect(await withdrawalRows(walletless)).to.have.length(0);
  });

  it('with no hold (the devnet), makes a new address usable at once, every time', async () => {
    const m = h.merchant();
    const added = await Promise.all(Array.from({ length: 40 }, () => h.approve(m)));
    for (const a of added) {
      expect(a.status, JSON.stringify(a)).to.equal('active');
      expect(a.usable_from).to.equal(a.created_at);
    }
  });

  it('never lets withdrawals requested at once take more than the wallet holds', async () => {
    const m = h.merchant({ USDC: '100' });
    const { address } = await h.approve(m);
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        h.as(m, 'POST', '/withdrawals/api/create', {
          amount: '10',
          currency: 'USDC',
          destination_address: address,
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).to.deep.equal([...Array(10).fill(201), 422, 422]);
    const [sum] = await withdrawalRows(m).sum('gross_amount as total');
    expect(Number(sum.total)).to.equal(100);
  });

  it('makes one withdrawal per Idempotency-Key, however often the request comes, at once or later', async () => {
    const m = h.merchant({ USDC: '100' });
    const body = { amount: '10', currency: 'USDC', destination_address: (await h.approve(m)).address };
    const headers = { 'idempotency-key': `withdraw-${randomUUID()}` };
    const call = () =>
      h.call('POST', '/withdrawals/api/create', {
        merchantId: m.merchantId,
        caller: 'api_key',
        body,
        headers,
      });
    // Retries of a request whose answer was lost (the gateway forgets the key after a 5xx), some at once.
    const first = await Promise.all(Array.from({ length: 4 }, call));
    const later = await call();
    for (const r of [...first, later]) expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(new Set([...first, later].map((r) => r.body.data.id)).size).to.equal(1);
    const rows = await withdrawalRows(m);
    expect(rows).to.have.length(1);
    await waitFor(() => commandsFor(rows[0].id).length === 2, 'the transfer commands');
    await new Promise((r) => setTimeout(r, 300));
    expect(commandsFor(rows[0].id)).to.have.length(2);
    // Another key is another withdrawal.
    const other = await h.call('POST', '/withdrawals/api/create', {
      merchantId: m.merchantId,
      caller: 'api_key',
      body,
      headers: { 'idempotency-key': `withdraw-${randomUUID()}` },
    });
    expect(other.status).to.equal(201);
    expect(await withdrawalRows(m)).to.have.length(2);
  });

  it('refuses an Idempotency-Key reused with another body (422, as the gateway does) and moves nothing', async () => {
    const m = h.merchant({ USDC: '100' });
    const body = { amount: '10', currency: 'USDC', destination_address: (await h.approve(m)).address };
    const headers = { 'idempotency-key': `withdraw-${randomUUID()}` };
    const call = (b: Record<string, unknown>) =>
      h.call('POST', '/withdrawals/api/create', {
        merchantId: m.merchantId,
        caller: 'api_key',
        body: b,
        headers,
      });
    const first = await call(body);
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    // The same body with its keys in another order is the same request.
    const same = await call({
      destination_address: body.destination_address,
      currency: 'USDC',
      amount: '10',
    });
    expect(same.status).to.equal(201);
    expect(same.body.data.id).to.equal(first.body.data.id);
    for (const other of [
      { ...body, amount: '11' },
      { ...body, destination_address: randomAddress() },
    ]) {
      const res = await call(other);
      expect(res.status).to.equal(422);
      expect(res.body).to.deep.equal({
        success: false,
        error: 'Idempotency-Key was already used with a different request body',
        details: [],
      });
    }
    const rows = await withdrawalRows(m);
    expect(rows.map((r) => r.id)).to.deep.equal([first.body.data.id]);
    await waitFor(() => commandsFor(first.body.data.id).length === 2, 'the transfer commands');
    await new Promise((r) => setTimeout(r, 300));
    expect(commandsFor(first.body.data.id)).to.have.length(2);
    expect(
      observer.messages.filter((e) => e.type === 'transfer.requested' && e.data.merchantId === m.merchantId),
    ).to.have.length(2);
    // A withdrawal stored before fingerprints were kept answers its key whatever the body.
    await h.db('withdrawals').where({ id: first.body.data.id }).update({ request_fingerprint: null });
    const old = await call({ ...body, amount: '11' });
    expect(old.status).to.equal(201);
    expect(old.body.data.id).to.equal(first.body.data.id);
  });

  it('holds back refunds in flight and transfers not settled, and releases them when they end', async () => {
    const m = h.merchant({ USDC: '100' });
    const refund = {
      refund_id: randomUUID(),
      payment_id: randomUUID(),
      merchant_id: m.merchantId,
      amount: '30.000000',
      currency: 'USDC' as const,
      status: 'pending' as const,
      destination_address: randomAddress(),
      blockchain: 'BASE',
      reason: 'other' as const,
      tx_hash: null,
    };
    await h.publish('refund.created', refund, { producer: 'refunds', merchantId: m.merchantId });
    await waitFor(() => h.db('refunds_in_flight').where({ refund_id: refund.refund_id }).first());
    const e = await refused(m, { amount: '70.000001' }, 422);
    expect(e.details[0]!.message).to.contain('70.000000 USDC');

    await h.publish(
      'refund.cancelled',
      { ...refund, status: 'cancelled' },
      { producer: 'refunds', merchantId: m.merchantId },
    );
    await waitFor(() =>
      h.db('refunds_in_flight').where({ refund_id: refund.refund_id }).whereNotNull('outcome').first(),
    );
    const w = await h.withdraw(m, { amount: '60' });
    // The fee transfer failed: its 0.30 is free again, the 59.70 sent to the destination is not.
    await h.report(m, w.id, 'fee', 'failed', { reason: 'insufficient funds' });
    await h.waitForStatus(m, w.id, 'failed');
    const rest = await refused(m, { amount: '40.300001' }, 422);
    expect(rest.details[0]!.message).to.contain('40.300000 USDC');
  });

  it('lists newest first with status and currency filters and pages, and hides other merchants', async () => {
    const m = h.merchant({ USDC: '1000', EURC: '1000' });
    const ids: string[] = [];
    for (const currency of ['USDC', 'EURC', 'USDC'])
      ids.push((await h.withdraw(m, { amount: '5', currency })).id);
    const list = await h.as(m, 'GET', '/withdrawals/api/list');
    const page = WithdrawalListResponse.parse(list.body).data;
    expect(page.withdrawals.map((w) => w.id)).to.deep.equal([...ids].reverse());
    expect(page).to.include({ total: 3, limit: 50, offset: 0 });

    const usdc = (await h.as(m, 'GET', '/withdrawals/api/list?currency=USDC&limit=1&offset=1')).body.data;
    expect(usdc).to.include({ total: 2, limit: 1, offset: 1 });
    expect(usdc.withdrawals.map((w: { id: string }) => w.id)).to.deep.equal([ids[0]]);
    const requested = (await h.as(m, 'GET', '/withdrawals/api/list?status=requested')).body.data;
    expect(requested.total).to.equal(3);
    expect((await h.as(m, 'GET', '/withdrawals/api/list?status=completed')).body.data.total).to.equal(0);
    expect((await h.as(m, 'GET', '/withdrawals/api/list?status=pending')).status).to.equal(400);

    const other = h.merchant();
    expect((await h.as(other, 'GET', '/withdrawals/api/list')).body.data.total).to.equal(0);
    const foreign = await h.as(other, 'GET', `/withdrawals/api/${ids[0]}`);
    expect(foreign.status).to.equal(404);
    expect(foreign.body).to.deep.equal({ success: false, error: 'Withdrawal not found', details: [] });
    expect((await h.as(m, 'GET', '/withdrawals/api/not-a-uuid')).status).to.equal(400);
  });
});
