import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  EmbeddedPostgres,
  INTERNAL_TOKEN_HEADER,
  InProcessBus,
  buildEvent,
  createDatabase,
  createMetrics,
  signInternalToken,
  type RunningService,
} from '@stablepay/platform';
import { quietLogger } from '@stablepay/platform/testing';
import { loadPaymentsConfig, startPaymentsService } from '../../src/index.js';
import { SECRET, waitFor } from '../support/harness.js';

/** The embedded default of `npm start`: PGlite (one session) and the in-process bus. */
describe('payments on PGlite with the in-process bus', function () {
  this.timeout(30_000);
  let embedded: EmbeddedPostgres;
  let bus: InProcessBus;
  let service: RunningService;
  const published: Array<Record<string, any>> = [];
  const merchantId = randomUUID();
  const publicId = `sp_live_${randomUUID()}`;

  before(async () => {
    embedded = await EmbeddedPostgres.open();
    const db = await createDatabase({ embedded, schema: 'payments' });
    bus = new InProcessBus();
    await bus.subscribe({
      queue: 'observer',
      routingKeys: ['payment.*', 'checkout.session.*'],
      handler: async ({ message }) => void published.push(message.body),
    });
    const config = loadPaymentsConfig({
      INTERNAL_TOKEN_SECRET: SECRET,
      ALLOW_INSECURE_URLS: 'true',
      EXTRA_CHAINS: '{"31337":"BASE"}',
      CHECKOUT_EXPIRY_SWEEP_MS: '100',
    });
    service = await startPaymentsService({
      config,
      deps: { db, bus, logger: quietLogger('payments'), metrics: createMetrics('payments', false) },
      port: 0,
      host: '127.0.0.1',
    });
    const created = buildEvent({
      type: 'merchant.created',
      producer: 'gateway',
      merchantId,
      data: {
        merchantId,
        publicId,
        name: 'Dev Shop',
        blockchain: 'BASE',
        acceptedCurrencies: ['USDC'],
        email: 'd@x.test',
      },
    });
    await bus.publish({
      id: created.id,
      type: created.type,
      body: created as unknown as Record<string, unknown>,
    });
    await waitFor(() => db('merchants').where({ merchant_id: merchantId }).first());
  });
  after(async () => {
    await service?.stop();
    await embedded?.close();
  });

  const call = async (method: string, path: string, caller: 'public' | 'api_key', body?: unknown) => {
    const claims = caller === 'public' ? { caller } : { caller, merchantId, merchantPublicId: publicId };
    const res = await fetch(`${service.url}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        [INTERNAL_TOKEN_HEADER]: signInternalToken(SECRET, claims),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('creates a session, takes one payment for it under concurrency and publishes payment.created', async () => {
    const session = await call('POST', '/checkout/sessions', 'api_key', {
      amount: '5',
      return_url: 'http://localhost:8081/done',
    });
    expect(session.status).to.equal(201);
    const payment = () => ({
      merchantId: publicId,
      txHash: `0x${randomBytes(32).toString('hex')}`,
      amount: 5,
      expectedAmount: 5,
      token: 'USDC',
      chainId: 31337,
      fromAddress: `0x${randomBytes(20).toString('hex')}`,
      toAddress: `0x${randomBytes(20).toString('hex')}`,
      customerEmail: 'c@x.test',
      sessionId: session.body.data.id,
    });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => call('POST', '/payments/create-public', 'public', payment())),
    );
    expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409, 409, 409, 409]);
    const winner = results.find((r) => r.status === 201)!.body.data.paymentId;
    const event = await waitFor(async () => published.find((m) => m.type === 'payment.created'));
    expect(event.data).to.include({ paymentId: winner, sessionId: session.body.data.id });
    const view = await call('GET', `/checkout/sessions/${session.body.data.id}/public`, 'public');
    expect(view.body.data.payment.id).to.equal(winner);
  });

  it('expires a due session in the background and publishes checkout.session.expired', async () => {
    const session = await call('POST', '/checkout/sessions', 'api_key', {
      return_url: 'http://localhost:8081/done',
      expires_in: 60,
    });
    const db = await createDatabase({ embedded, schema: 'payments' });
    try {
      await db('checkout_sessions')
        .where({ id: session.body.data.id })
        .update({ expires_at: db.raw(`now() - interval '1 second'`) });
    } finally {
      await db.destroy();
    }
    await waitFor(async () =>
      published.find(
        (m) => m.type === 'checkout.session.expired' && m.data.sessionId === session.body.data.id,
      ),
    );
  });
});
