import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Currency, TransferPurpose, Withdrawal, WithdrawalAddress } from '@stablepay/contracts';
import type { Knex } from 'knex';
import {
  AmqpBus,
  createDatabase,
  createMetrics,
  startDefinedService,
  type ServiceRole,
} from '@stablepay/platform';
import {
  bootService,
  quietLogger,
  waitFor,
  type CallOptions,
  type CallResult,
  type ServiceUnderTest,
} from '@stablepay/platform/testing';
import {
  invoicingService,
  transferKey,
  type InvoicingConfig,
  type InvoicingContext,
  type InvoicingOptions,
} from '../../src/index.js';
import { BalanceServer } from './balance-server.js';

export const TREASURY = '0x7e5f4552091a69125d5dfcb7b8c2659029395bdf';

export const randomTxHash = (): string => `0x${randomBytes(32).toString('hex')}`;
export const randomAddress = (): string => `0x${randomBytes(20).toString('hex')}`;

/** A merchant with a wallet on BASE holding `balances` (USDC and EURC by default). */
export interface TestMerchant {
  merchantId: string;
  wallet: string;
}

export interface Harness extends ServiceUnderTest<InvoicingConfig, InvoicingContext> {
  balances: BalanceServer;
  storageDir: string;
  merchant(balances?: Partial<Record<Currency, string>>): TestMerchant;
  /** Calls as the merchant's API key (`key`) or dashboard session (`jwt`). */
  as(m: TestMerchant, method: string, path: string, body?: unknown, via?: 'key' | 'jwt'): Promise<CallResult>;
  /** Adds an address to the merchant's withdrawal address book, as the gateway forwards a confirmed add. */
  approve(m: TestMerchant, address?: string, label?: string): Promise<WithdrawalAddress>;
  /**
   * Creates a withdrawal through the API and returns its view (asserting 201); a destination the
   * body does not name is a new address, approved first.
   */
  withdraw(m: TestMerchant, body?: Record<string, unknown>): Promise<Withdrawal>;
  /** Plays the chain-watcher: reports on one of a withdrawal's transfers, routed as its relay does. */
  report(
    m: TestMerchant,
    withdrawalId: string,
    leg: 'net' | 'fee',
    outcome: 'submitted' | 'confirmed' | 'failed',
    opts?: { txHash?: string; reason?: string; times?: number; purpose?: TransferPurpose },
  ): Promise<string>;
  /** Both transfers submitted and confirmed: the withdrawal completes and its invoice is issued. */
  complete(m: TestMerchant, withdrawalId: string): Promise<{ net: string; fee: string }>;
  waitForStatus(m: TestMerchant, withdrawalId: string, status: string): Promise<Withdrawal>;
  /** Waits until the withdrawal's invoice exists and its PDF is stored; returns the invoice view. */
  waitForInvoice(m: TestMerchant, withdrawalId: string): Promise<Record<string, any>>;
  /** Another instance of the service on the same database and broker prefix. */
  startReplica(role?: ServiceRole): Promise<void>;
}

/** The real service (bootService) with a real HTTP server in the chain-watcher's place. */
export const startHarness = async (
  env: Record<string, string> = {},
  options: InvoicingOptions = {},
  role?: ServiceRole,
): Promise<Harness> => {
  const balances = await new BalanceServer().start();
  const storageDir = mkdtempSync(join(tmpdir(), 'sp-invoices-'));
  const sut = await bootService(invoicingService, {
    env: {
      CHAIN_WATCHER_URL: balances.url,
      TREASURY_ADDRESS: TREASURY,
      INVOICE_STORAGE_DIR: storageDir,
      PDF_POLL_MS: '50',
      SELLER_NAME: 'Stablepay GmbH',
      SELLER_STREET: 'Hauptstraße 1',
      SELLER_POSTCODE: '10115',
      SELLER_CITY: 'Berlin',
      SELLER_COUNTRY: 'DE',
      SELLER_VAT_NUMBER: 'DE999999999',
      // No hold unless a test sets one: most tests are about what happens after an address is approved.
      WITHDRAWAL_ADDRESS_HOLD: '0',
      ...env,
    },
    options,
    role,
    poolMax: 25,
  });
  const replicas: Array<{ stop(): Promise<void> }> = [];
  // Test merchants are projected as merchant.created of a confirmed account would have made them;
  // every call waits for those rows, so a test never races its own merchant.
  const announced: Array<Promise<unknown>> = [];
  const call: Harness['call'] = async (...args) => {
    await Promise.all(announced);
    return sut.call(...args);
  };
  const as: Harness['as'] = (m, method, path, body, via = 'key') => {
    const opts: CallOptions = { merchantId: m.merchantId, caller: via === 'key' ? 'api_key' : 'user', body };
    return call(method, path, opts);
  };
  const h: Harness = {
    ...sut,
    call,
    balances,
    storageDir,
    merchant: (tokens = { USDC: '1000', EURC: '1000' }) => {
      const m = { merchantId: randomUUID(), wallet: randomAddress() };
      balances.setWallet(m.merchantId, { address: m.wallet, blockchain: 'BASE', balances: { ...tokens } });
      announced.push(projectConfirmedMerchant(sut.db, m.merchantId));
      return m;
    },
    as,
    approve: async (m, address = randomAddress(), label = 'Treasury') => {
      const res = await sut.call('POST', '/withdrawal-addresses', {
        merchantId: m.merchantId,
        caller: 'user',
        stepUp: 'recent_sign_in',
        body: { address, label },
      });
      if (res.status !== 201) throw new Error(`address not added: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    withdraw: async (m, body = {}) => {
      const destination = body.destination_address ?? (await h.approve(m)).address;
      const res = await as(m, 'POST', '/withdrawals/api/create', {
        currency: 'USDC',
        ...body,
        destination_address: destination,
      });
      if (res.status !== 201)
        throw new Error(`withdrawal not created: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    report: async (m, withdrawalId, leg, outcome, opts = {}) => {
      const txHash = opts.txHash ?? randomTxHash();
      const idempotencyKey = transferKey(withdrawalId, leg);
      const purpose = opts.purpose ?? 'withdrawal';
      const publish = { producer: 'chain-watcher' as const, merchantId: m.merchantId, times: opts.times };
      if (outcome === 'submitted')
        await sut.publish(
          'transfer.submitted',
          { idempotencyKey, purpose, txHash, blockchain: 'BASE' },
          publish,
        );
      else if (outcome === 'confirmed')
        await sut.publish(
          'transfer.confirmed',
          { idempotencyKey, purpose, txHash, blockNumber: 42 },
          publish,
        );
      else
        await sut.publish(
          'transfer.failed',
          { idempotencyKey, purpose, reason: opts.reason ?? 'reverted', code: 'reverted', txHash: null },
          publish,
        );
      return txHash;
    },
    complete: async (m, withdrawalId) => {
      const net = await h.report(m, withdrawalId, 'net', 'submitted');
      const fee = await h.report(m, withdrawalId, 'fee', 'submitted');
      await h.report(m, withdrawalId, 'net', 'confirmed', { txHash: net });
      await h.report(m, withdrawalId, 'fee', 'confirmed', { txHash: fee });
      return { net, fee };
    },
    waitForStatus: (m, withdrawalId, status) =>
      waitFor(async () => {
        const res = await as(m, 'GET', `/withdrawals/api/${withdrawalId}`);
        return res.body?.data?.status === status ? res.body.data : undefined;
      }),
    waitForInvoice: async (m, withdrawalId) => {
      const row = await waitFor(() =>
        sut
          .db('invoices')
          .where({ withdrawal_id: withdrawalId })
          .whereNull('rectifies_invoice_id')
          .whereNotNull('pdf_stored_at')
          .first(),
      );
      const list = await as(m, 'GET', '/invoices/api/list');
      return (list.body.data as Array<Record<string, any>>).find((i) => i.id === row.id)!;
    },
    startReplica: async (role) => {
      const logger = quietLogger('invoicing');
      const db = await createDatabase({
        url: sut.databaseUrl,
        schema: sut.config.DATABASE_SCHEMA,
        poolMax: 25,
      });
      const bus = new AmqpBus({ url: sut.amqpUrl, prefix: sut.prefix, logger });
      await bus.connect();
      const deps = { db, bus, logger, metrics: createMetrics('invoicing', false) };
      replicas.push(
        await startDefinedService(invoicingService, {
          config: sut.config,
          deps,
          port: 0,
          host: '127.0.0.1',
          role,
          options,
        }),
      );
    },
    close: async () => {
      for (const r of replicas.reverse()) await r.stop();
      await sut.close();
      await balances.close();
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
  return h;
};

/** The merchants row merchant.created (and merchant.email_confirmed) project for a confirmed account. */
export const projectConfirmedMerchant = async (db: Knex, merchantId: string): Promise<void> => {
  await db('merchants').insert({
    merchant_id: merchantId,
    public_id: `sp_live_${merchantId}`,
    name: 'Shop',
    email: 'shop@example.com',
    blockchain: 'BASE',
    email_confirmed: true,
  });
};

/** A complete billing profile, saved through the dashboard route. */
export const saveProfile = async (h: Harness, m: TestMerchant, profile: Record<string, unknown>) => {
  const res = await h.as(
    m,
    'PUT',
    '/billing-profile',
    {
      legal_name: 'Shop Ltd',
      address_line1: '1 Main Street',
      postal_code: '12345',
      city: 'Springfield',
      ...profile,
    },
    'jwt',
  );
  if (res.status !== 200) throw new Error(`profile not saved: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
};
