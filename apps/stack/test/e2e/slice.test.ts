import { expect } from 'chai';
import { hex, paymentBody, waitFor, proveSession } from '../support.js';
import { startStackHarness, type Merchant, type StackHarness } from './harness.js';

/** The first vertical slice, through the gateway only, on PostgreSQL and RabbitMQ. */
describe('merchant slice through the gateway (PostgreSQL, RabbitMQ)', function () {
  this.timeout(120_000);
  let h: StackHarness;

  before(async () => {
    h = await startStackHarness();
  });
  after(async () => h?.close());

  const gw = { call: (...args: Parameters<StackHarness['gw']['call']>) => h.gw.call(...args) };
  const register = (email: string) => h.register(email);
  /** A create-public body addressed to the merchant's own wallet. */
  const bodyFor = (m: Merchant, extra: Record<string, unknown> = {}) =>
    paymentBody(m.merchantId, { toAddress: m.wallet.address, chainId: m.wallet.chainId, ...extra });

  it('registers, creates a key, opens a session, records a payment and publishes it', async () => {
    const m = await register('owner@shop.example');
    expect(m.merchantId).to.match(/^sp_live_[0-9a-f-]{36}$/);
    await waitFor(
      () => h.events.some((e) => e.type === 'merchant.created' && e.body.data.publicId === m.merchantId),
      'merchant.created',
    );

    const forbidden = await gw.call('GET', '/api-keys', { headers: m.key });
    expect(forbidden.status).to.equal(403);
    expect(forbidden.body.success).to.equal(false);

    const session = await gw.call('POST', '/checkout/sessions', {
      headers: m.key,
      body: {
        amount: '25.00',
        currency: 'USDC',
        return_url: 'https://shop.example/thanks',
        metadata: { order: '1001' },
      },
    });
    expect(session.status, JSON.stringify(session.body)).to.equal(201);
    const sessionId = session.body.data.id as string;
    expect(sessionId).to.match(/^cs_live_[0-9a-f-]{36}$/);
    expect(session.body.data.url).to.equal(`${h.stack.checkoutUrl}?session=${sessionId}`);

    const pub = await gw.call('GET', `/checkout/sessions/${sessionId}/public`);
    expect(pub.status).to.equal(200);
    expect(pub.body.data).to.not.have.property('metadata');
    expect(pub.headers.get('access-control-allow-origin')).to.equal('*');

    // Signed by the paying wallet, as the checkout page does: a session link needs the payer's proof.
    const body = proveSession(bodyFor(m, { sessionId }));
    // The payments service learns of the merchant from merchant.created.
    const created = await waitFor(async () => {
      const r = await gw.call('POST', '/payments/create-public', { body });
      return r.status === 201 ? r : undefined;
    }, 'payment creation');
    expect(created.body).to.deep.equal({
      success: true,
      data: { paymentId: created.body.data.paymentId, status: 'pending', isCrossChain: false },
    });
    const paymentId = created.body.data.paymentId as string;

    const again = await gw.call('POST', '/payments/create-public', { body: { ...body, reference: 'other' } });
    expect(again.status).to.equal(200);
    expect(again.body.data.paymentId).to.equal(paymentId);

    const published = await waitFor(
      () => h.events.find((e) => e.type === 'payment.created' && e.body.data.paymentId === paymentId),
      'payment.created on RabbitMQ',
    );
    expect(published.body.data.txHash).to.equal(body.txHash.toLowerCase());
    expect(
      h.events.filter((e) => e.type === 'payment.created' && e.body.data.paymentId === paymentId),
    ).to.have.length(1);

    const status = await gw.call('GET', `/payments/${paymentId}/status`);
    expect(status.status).to.equal(200);
    expect(Object.keys(status.body.data).sort()).to.deep.equal([
      'cctp_attestation_status',
      'id',
      'is_cross_chain',
      'status',
      'updated_at',
    ]);

    const list = await gw.call('GET', '/payments/api/list?limit=10', { headers: m.key });
    expect(list.status).to.equal(200);
    expect(list.body.data.payments.map((p: { id: string }) => p.id)).to.deep.equal([paymentId]);
    const jwtList = await gw.call('GET', '/payments', { headers: m.bearer });
    expect(jwtList.status).to.equal(200);

    const detail = await gw.call('GET', `/payments/api/${paymentId}`, { headers: m.key });
    expect(detail.status).to.equal(200);
    expect(detail.body.data.expected_amount).to.match(/^25\.0+$/);

    const linked = await gw.call('GET', `/checkout/sessions/${sessionId}`, { headers: m.key });
    expect(linked.status).to.equal(200);
    expect(linked.body.data.payment.id).to.equal(paymentId);
  });

  it('isolates merchants: another merchant gets 404 for the payment and the session', async () => {
    const a = await register('a@shop.example');
    const b = await register('b@shop.example');
    const session = await gw.call('POST', '/checkout/sessions', {
      headers: a.key,
      body: { return_url: 'https://a.example/back' },
    });
    const created = await waitFor(async () => {
      const r = await gw.call('POST', '/payments/create-public', { body: bodyFor(a) });
      return r.status === 201 ? r : undefined;
    }, 'payment creation');
    const paymentId = created.body.data.paymentId as string;
    expect((await gw.call('GET', `/payments/api/${paymentId}`, { headers: b.key })).status).to.equal(404);
    expect((await gw.call('GET', `/payments/${paymentId}`, { headers: b.bearer })).status).to.equal(404);
    expect(
      (await gw.call('GET', `/checkout/sessions/${session.body.data.id}`, { headers: b.key })).status,
    ).to.equal(404);
    const listB = await gw.call('GET', '/payments/api/list', { headers: b.key });
    expect(listB.body.data.total).to.equal(0);
  });

  it('answers 401 for a missing or revoked key, at once', async () => {
    const m = await register('revoke@shop.example');
    expect((await gw.call('GET', '/payments/api/list')).status).to.equal(401);
    expect((await gw.call('GET', '/payments/api/list', { headers: m.key })).status).to.equal(200);
    const del = await gw.call('DELETE', `/api-keys/${m.keyId}`, { headers: m.bearer });
    expect(del.status).to.equal(200);
    const after = await gw.call('GET', '/payments/api/list', { headers: m.key });
    expect(after.status).to.equal(401);
    expect(after.body.success).to.equal(false);
  });

  it('rejects bad input with 400 and field details, never 500', async () => {
    const r = await gw.call('POST', '/payments/create-public', {
      body: {
        merchantId: 'nope',
        txHash: '0x12',
        amount: 0.001,
        token: 'DOGE',
        chainId: -1,
        customerEmail: 'x',
      },
    });
    expect(r.status).to.equal(400);
    expect(r.body.success).to.equal(false);
    const paths = (r.body.details as Array<{ path: string }>).map((d) => d.path);
    for (const f of [
      'merchantId',
      'txHash',
      'amount',
      'token',
      'chainId',
      'fromAddress',
      'toAddress',
      'customerEmail',
    ]) {
      expect(paths, f).to.include(f);
    }
    // A merchant on a chain this deployment does not serve would never get a wallet.
    const arb = await gw.call('POST', '/auth/register', {
      body: {
        email: 'arb@shop.example',
        password: 'correct horse battery staple',
        merchantName: 'A',
        blockchain: 'ARB',
      },
    });
    expect(arb.status).to.equal(400);
    expect(arb.body.details[0]).to.include({ path: 'blockchain', code: 'unsupported_blockchain' });
    const unknownMerchant = await gw.call('POST', '/payments/create-public', {
      body: paymentBody(`sp_live_${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, { txHash: hex(32) }),
    });
    expect(unknownMerchant.status).to.equal(404);
  });
});
