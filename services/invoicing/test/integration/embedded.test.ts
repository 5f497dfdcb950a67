import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { invoicingService, loadInvoicingConfig, transferKey } from '../../src/index.js';
import { BalanceServer } from '../support/balance-server.js';
import { TREASURY, projectConfirmedMerchant, randomAddress, randomTxHash } from '../support/harness.js';

/** The embedded default of `npm start`: PGlite (one session) and the in-process bus. */
describe('invoicing on PGlite with the in-process bus', function () {
  this.timeout(30_000);
  let embedded: EmbeddedPostgres;
  let service: RunningService;
  let balances: BalanceServer;
  let bus: InProcessBus;
  const dir = mkdtempSync(join(tmpdir(), 'sp-invoices-embedded-'));
  const published: Array<Record<string, any>> = [];
  const merchantId = randomUUID();

  before(async () => {
    embedded = await EmbeddedPostgres.open();
    const db = await createDatabase({ embedded, schema: 'invoicing' });
    bus = new InProcessBus();
    await bus.subscribe({
      queue: 'observer',
      routingKeys: ['withdrawal.*', 'invoice.issued', 'transfer.requested'],
      handler: async ({ message }) => void published.push(message.body),
    });
    balances = await new BalanceServer().start();
    balances.setWallet(merchantId, {
      address: randomAddress(),
      blockchain: 'BASE',
      balances: { USDC: '500' },
    });
    const config = loadInvoicingConfig({
      INTERNAL_TOKEN_SECRET: TEST_INTERNAL_SECRET,
      CHAIN_WATCHER_URL: balances.url,
      TREASURY_ADDRESS: TREASURY,
      INVOICE_STORAGE_DIR: dir,
      PDF_POLL_MS: '50',
      WITHDRAWAL_ADDRESS_HOLD: '0',
    });
    service = await startDefinedService(invoicingService, {
      config,
      deps: { db, bus, logger: quietLogger('invoicing'), metrics: createMetrics('invoicing', false) },
      port: 0,
      host: '127.0.0.1',
    });
    // The service has migrated its tables: the merchant is known, as merchant.created makes it.
    await projectConfirmedMerchant(db, merchantId);
  });
  after(async () => {
    await service?.stop();
    await balances?.close();
    await embedded?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = (method: string, path: string, body?: unknown) =>
    callService(service.url, method, path, { merchantId, body });

  it('withdraws concurrently, completes, and issues and stores the invoice', async () => {
    const added = await callService(service.url, 'POST', '/withdrawal-addresses', {
      merchantId,
      caller: 'user',
      stepUp: 'recent_sign_in',
      body: { address: randomAddress(), label: 'Payout' },
    });
    expect(added.status, JSON.stringify(added.body)).to.equal(201);
    // No hold on the devnet: usable at once.
    expect(added.body.data).to.include({ status: 'active' });
    expect(added.body.data.usable_from).to.equal(added.body.data.created_at);
    const create = () =>
      call('POST', '/withdrawals/api/create', {
        amount: '100',
        currency: 'USDC',
        destination_address: added.body.data.address,
      });
    const results = await Promise.all(Array.from({ length: 6 }, create));
    expect(results.map((r) => r.status).sort()).to.deep.equal([201, 201, 201, 201, 201, 422]);
    const id = results.find((r) => r.status === 201)!.body.data.id as string;
    await waitFor(
      async () =>
        published.filter((m) => m.type === 'transfer.requested' && m.data.idempotencyKey.includes(id))
          .length === 2,
    );

    for (const leg of ['net', 'fee'] as const) {
      await publishEvent(
        bus,
        'transfer.confirmed',
        {
          idempotencyKey: transferKey(id, leg),
          purpose: 'withdrawal',
          txHash: randomTxHash(),
          blockNumber: 7,
        },
        { producer: 'chain-watcher', merchantId },
      );
    }
    const issued = await waitFor(async () =>
      published.find((m) => m.type === 'invoice.issued' && m.data.withdrawalId === id),
    );
    const pdf = await call('GET', `/invoices/api/${issued.data.invoiceId}/pdf`);
    expect(pdf.status).to.equal(200);
    expect(pdf.headers.get('content-type')).to.equal('application/pdf');
    const list = await call('GET', '/invoices/api/list');
    expect(list.body.data).to.have.length(1);
    expect(list.body.data[0]).to.include({
      invoice_number: issued.data.invoiceNumber,
      service_fee: '0.500000',
    });
  });
});
