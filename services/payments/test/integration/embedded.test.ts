import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  EmbeddedPostgres,
  InProcessBus,
  createDatabase,
  createMetrics,
  startDefinedService,
  type RunningService,
} from '@stablepay/platform';
import {
  TEST_INTERNAL_SECRET,
  callService,
  publishEvent,
  quietLogger,
  waitFor,
} from '@stablepay/platform/testing';
import { paymentsService } from '../../src/index.js';
import { TEST_CHAIN_REGISTRY, TEST_FEE_QUOTE_SECRET } from '../support/harness.js';
import { proveSession } from '../support/session-proof.js';

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
    const config = paymentsService.loadConfig({
      INTERNAL_TOKEN_SECRET: TEST_INTERNAL_SECRET,
      ALLOW_INSECURE_URLS: 'true',
      CHAIN_REGISTRY: JSON.stringify(TEST_CHAIN_REGISTRY),
      CHECKOUT_EXPIRY_SWEEP_MS: '100',
      FEE_QUOTE_SECRET: TEST_FEE_QUOTE_SECRET,
    });
    service = await startDefinedService(paymentsService, {
      config,
      deps: { db, bus, logger: quietLogger('payments'), metrics: createMetrics('payments', false) },
      port: 0,
      host: '127.0.0.1',
    });
    await publishEvent(bus, 'merchant.created', {
      merchantId,
      publicId,
      name: 'Dev Shop',
      blockchain: 'BASE',
      acceptedCurrencies: ['USDC'],
      email: 'd@x.test',
    });
    await waitFor(() => db('merchants').where({ merchant_id: merchantId }).first());
  });
  after(async () => {
    await service?.stop();
    await embedded?.close();
  });

  const call = (method: string, path: string, caller: 'public' | 'api_key', body?: unknown) =>
    callService(service.url, method, path, { caller, merchantId, merchantPublicId: publicId, body });

  it('creates a session, takes one payment for it under concurrency and publishes payment.created', async () => {
    const session = await call('POST', '/checkout/sessions', 'api_key', {
      amount: '5',
      return_url: 'http://localhost:8081/done',
    });
    expect(session.status).to.equal(201);
    const payment = () =>
      proveSession({
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
