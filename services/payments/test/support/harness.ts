import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  AmqpBus,
  INTERNAL_TOKEN_HEADER,
  buildEvent,
  createDatabase,
  createMetrics,
  signInternalToken,
  type CallerKind,
  type RunningService,
} from '@stablepay/platform';
import {
  createTestDatabase,
  quietLogger,
  testAmqpUrl,
  testQueuePrefix,
  type TestDatabase,
} from '@stablepay/platform/testing';
import type { BlockchainName, Currency } from '@stablepay/contracts';
import { loadPaymentsConfig, startPaymentsService, type PaymentsConfig } from '../../src/index.js';

export const SECRET = 'test-internal-token-secret-0123456789abcdef';

import { waitFor } from '@stablepay/platform/testing';

export { waitFor };

export const randomTxHash = (): string => `0x${randomBytes(32).toString('hex')}`;
export const randomAddress = (): string => `0x${randomBytes(20).toString('hex')}`;

export interface TestMerchant {
  merchantId: string;
  publicId: string;
  wallet?: string;
}

export interface CallOptions {
  caller?: CallerKind;
  merchant?: TestMerchant;
  body?: unknown;
  /** send no internal token at all */
  anonymous?: boolean;
}

export interface Harness {
  url: string;
  db: Knex;
  bus: AmqpBus;
  prefix: string;
  amqpUrl: string;
  config: PaymentsConfig;
  service: RunningService;
  call(method: string, path: string, opts?: CallOptions): Promise<{ status: number; body: any }>;
  seedMerchant(opts?: {
    currencies?: Currency[];
    wallet?: boolean;
    blockchain?: BlockchainName;
  }): Promise<TestMerchant>;
  close(): Promise<void>;
}

/** The real service on port 0, on a fresh PostgreSQL database and a fresh RabbitMQ prefix. */
export const startHarness = async (env: Record<string, string> = {}): Promise<Harness> => {
  const testDb: TestDatabase = await createTestDatabase();
  const amqpUrl = await testAmqpUrl();
  const prefix = testQueuePrefix();
  const config = loadPaymentsConfig({
    INTERNAL_TOKEN_SECRET: SECRET,
    DATABASE_URL: testDb.url,
    AMQP_URL: amqpUrl,
    AMQP_PREFIX: prefix,
    CHECKOUT_URL: 'https://pay.example.test/',
    EXTRA_CHAINS: '{"31337":"BASE","31338":"ARB"}',
    CHECKOUT_EXPIRY_SWEEP_MS: '100',
    ...env,
  });
  const logger = quietLogger('payments');
  const db = await createDatabase({ url: testDb.url, schema: config.DATABASE_SCHEMA, poolMax: 20 });
  const bus = new AmqpBus({ url: amqpUrl, prefix, logger });
  await bus.connect();
  const service = await startPaymentsService({
    config,
    deps: { db, bus, logger, metrics: createMetrics('payments', false) },
    port: 0,
    host: '127.0.0.1',
  });

  const call: Harness['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (!opts.anonymous) {
      const caller = opts.caller ?? (opts.merchant ? 'api_key' : 'public');
      headers[INTERNAL_TOKEN_HEADER] = signInternalToken(SECRET, {
        caller,
        merchantId: caller === 'public' ? undefined : opts.merchant?.merchantId,
        merchantPublicId: caller === 'public' ? undefined : opts.merchant?.publicId,
      });
    }
    const res = await fetch(`${service.url}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  const seedMerchant: Harness['seedMerchant'] = async (opts = {}) => {
    const merchantId = randomUUID();
    const merchant: TestMerchant = { merchantId, publicId: `sp_live_${randomUUID()}` };
    const created = buildEvent({
      type: 'merchant.created',
      producer: 'gateway',
      merchantId,
      data: {
        merchantId,
        publicId: merchant.publicId,
        name: 'Test Shop',
        blockchain: opts.blockchain ?? 'BASE',
        acceptedCurrencies: opts.currencies ?? ['USDC', 'EURC'],
        email: 'shop@example.test',
      },
    });
    await bus.publish({
      id: created.id,
      type: created.type,
      body: created as unknown as Record<string, unknown>,
    });
    await waitFor(() => db('merchants').where({ merchant_id: merchantId }).first());
    if (opts.wallet) {
      merchant.wallet = randomAddress();
      const assigned = buildEvent({
        type: 'wallet.assigned',
        producer: 'chain-watcher',
        merchantId,
        data: {
          merchantId,
          walletId: randomUUID(),
          address: merchant.wallet,
          blockchain: 'BASE',
          chainId: 31337,
        },
      });
      await bus.publish({
        id: assigned.id,
        type: assigned.type,
        body: assigned as unknown as Record<string, unknown>,
      });
      await waitFor(() =>
        db('merchants').where({ merchant_id: merchantId }).whereNotNull('wallet_address').first(),
      );
    }
    return merchant;
  };

  return {
    url: service.url,
    db,
    bus,
    prefix,
    amqpUrl,
    config,
    service,
    call,
    seedMerchant,
    close: async () => {
      await service.stop();
      await testDb.drop();
    },
  };
};

/** A valid same-chain create-public body for `merchant`, with overrides. */
export const paymentBody = (
  merchant: TestMerchant,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> => ({
  merchantId: merchant.publicId,
  txHash: randomTxHash(),
  amount: 25.5,
  expectedAmount: 25.5,
  token: 'USDC',
  chainId: 31337,
  fromAddress: randomAddress(),
  toAddress: merchant.wallet ?? randomAddress(),
  customerEmail: 'buyer@example.test',
  ...overrides,
});

export { observeEvents } from '@stablepay/platform/testing';
