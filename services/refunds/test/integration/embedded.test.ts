import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
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
import { loadRefundsConfig, refundsService } from '../../src/index.js';
import { BalanceServer } from '../support/balance-server.js';
import { paymentCompleted, randomAddress, randomTxHash } from '../support/harness.js';

/** The embedded default of `npm start`: PGlite (one session) and the in-process bus. */
describe('refunds on PGlite with the in-process bus', function () {
  this.timeout(30_000);
  let embedded: EmbeddedPostgres;
  let bus: InProcessBus;
  let service: RunningService;
  let balances: BalanceServer;
  const published: Array<Record<string, any>> = [];
  const merchantId = randomUUID();

  before(async () => {
    embedded = await EmbeddedPostgres.open();
    const db = await createDatabase({ embedded, schema: 'refunds' });
    bus = new InProcessBus();
    await bus.subscribe({
      queue: 'observer',
      routingKeys: ['refund.*', 'transfer.requested'],
      handler: async ({ message }) => void published.push(message.body),
    });
    balances = await new BalanceServer().start();
    balances.setBalance(merchantId, { USDC: '1000' });
    const config = loadRefundsConfig({
      INTERNAL_TOKEN_SECRET: TEST_INTERNAL_SECRET,
      CHAIN_WATCHER_URL: balances.url,
      REFUND_HOLD_SECONDS: '0',
      DISPATCH_POLL_MS: '50',
    });
    service = await startDefinedService(refundsService, {
      config,
      deps: { db, bus, logger: quietLogger('refunds'), metrics: createMetrics('refunds', false) },
      port: 0,
      host: '127.0.0.1',
    });
  });
  after(async () => {
    await service?.stop();
    await balances?.close();
    await embedded?.close();
  });

  const call = (method: string, path: string, body?: unknown) =>
    callService(service.url, method, path, { merchantId, body });

  it('projects, refunds concurrently, dispatches and completes', async () => {
    const payment = {
      id: randomUUID(),
      merchant: { merchantId },
      amount: '50.000000',
      currency: 'USDC' as const,
      fromAddress: randomAddress(),
      txHash: randomTxHash(),
      blockchain: 'BASE' as const,
      completedAt: new Date().toISOString(),
    };
    await publishEvent(bus, 'payment.completed', paymentCompleted(payment), {
      producer: 'payments',
      merchantId,
    });
    const create = () =>
      call('POST', '/refunds/api/create', { paymentId: payment.id, amount: '10', reason: 'other' });
    const first = await waitFor(async () => {
      const r = await create();
      return r.status === 201 ? r : undefined;
    });
    const rest = await Promise.all(Array.from({ length: 5 }, create));
    expect(rest.map((r) => r.status).sort()).to.deep.equal([201, 201, 201, 201, 422]);

    const id = first.body.data.id as string;
    const command = await waitFor(async () =>
      published.find((m) => m.type === 'transfer.requested' && m.data.idempotencyKey === id),
    );
    expect(command.data).to.include({
      purpose: 'refund',
      amount: '10.000000',
      toAddress: payment.fromAddress,
    });
    const txHash = randomTxHash();
    await publishEvent(
      bus,
      'transfer.confirmed',
      { idempotencyKey: id, purpose: 'refund', txHash, blockNumber: 7 },
      { producer: 'chain-watcher', merchantId },
    );
    const done = await waitFor(async () => {
      const d = (await call('GET', `/refunds/api/${id}`)).body.data;
      return d.status === 'completed' ? d : undefined;
    });
    expect(done.tx_hash).to.equal(txHash);
    await waitFor(async () =>
      published.some((m) => m.type === 'refund.completed' && m.data.refund_id === id),
    );
  });
});
