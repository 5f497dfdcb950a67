import { randomBytes, randomUUID } from 'node:crypto';
import type { BlockchainName, Currency, EventDataInput } from '@stablepay/contracts';
import { AmqpBus, createDatabase, createMetrics, startDefinedService } from '@stablepay/platform';
import { bootService, quietLogger, waitFor, type ServiceUnderTest } from '@stablepay/platform/testing';
import { refundsService, type RefundsConfig, type RefundsContext } from '../../src/index.js';
import { BalanceServer } from './balance-server.js';
import { PaymentsServer } from './payments-server.js';

export const DAY_MS = 86_400_000;

export const randomTxHash = (): string => `0x${randomBytes(32).toString('hex')}`;
export const randomAddress = (): string => `0x${randomBytes(20).toString('hex')}`;

/** Spread into a call's options (`{ ...shop, body }`) to call as this merchant's API key. */
export interface TestMerchant {
  merchantId: string;
}
export const newMerchant = (): TestMerchant => ({ merchantId: randomUUID() });

export interface SeededPayment {
  id: string;
  merchant: TestMerchant;
  amount: string;
  currency: Currency;
  fromAddress: string;
  txHash: string;
  blockchain: BlockchainName;
  completedAt: string;
}

export interface SeedOptions {
  amount?: string;
  currency?: Currency;
  completedAt?: Date;
  /** a cross-chain payment from `source` that the merchant received on `destination` */
  crossChain?: { source: BlockchainName; destination: BlockchainName };
  sourceChain?: string;
  /** what payment.completed says reached the merchant wallet (absent: an earlier producer's event) */
  receivedAmount?: string;
}

export interface Harness extends ServiceUnderTest<RefundsConfig, RefundsContext> {
  balances: BalanceServer;
  /** Stands in for the payments service, asked about payments not projected yet. */
  payments: PaymentsServer;
  /** Publishes a real payment.completed and waits until the service has projected it. */
  seedPayment(merchant: TestMerchant, opts?: SeedOptions): Promise<SeededPayment>;
  /** Another instance of the service on the same database and broker prefix. */
  startReplica(): Promise<void>;
}

/**
 * The real service (bootService) with a real HTTP server in the chain-watcher's place. Refunds are
 * held for an hour unless the suite asks otherwise, so nothing is dispatched behind a test's back.
 */
export const startHarness = async (env: Record<string, string> = {}): Promise<Harness> => {
  const balances = await new BalanceServer().start();
  const payments = await new PaymentsServer().start();
  const sut = await bootService(refundsService, {
    env: {
      CHAIN_WATCHER_URL: balances.url,
      PAYMENTS_URL: payments.url,
      REFUND_HOLD_SECONDS: '3600',
      DISPATCH_POLL_MS: '50',
      ...env,
    },
    poolMax: 25,
  });
  const replicas: Array<{ stop(): Promise<void> }> = [];
  return {
    ...sut,
    balances,
    payments,
    seedPayment: async (merchant, opts = {}) => {
      const seeded: SeededPayment = {
        id: randomUUID(),
        merchant,
        amount: opts.amount ?? '100.000000',
        currency: opts.currency ?? 'USDC',
        fromAddress: randomAddress(),
        txHash: randomTxHash(),
        blockchain: opts.crossChain?.destination ?? 'BASE',
        completedAt: (opts.completedAt ?? new Date()).toISOString(),
      };
      await sut.publish('payment.completed', paymentCompleted(seeded, opts), {
        producer: 'payments',
        merchantId: merchant.merchantId,
      });
      await waitFor(() => sut.db('refundable_payments').where({ payment_id: seeded.id }).first());
      return seeded;
    },
    startReplica: async () => {
      const logger = quietLogger('refunds');
      const db = await createDatabase({
        url: sut.databaseUrl,
        schema: sut.config.DATABASE_SCHEMA,
        poolMax: 25,
      });
      const bus = new AmqpBus({ url: sut.amqpUrl, prefix: sut.prefix, logger });
      await bus.connect();
      const deps = { db, bus, logger, metrics: createMetrics('refunds', false) };
      replicas.push(
        await startDefinedService(refundsService, { config: sut.config, deps, port: 0, host: '127.0.0.1' }),
      );
    },
    close: async () => {
      for (const r of replicas.reverse()) await r.stop();
      await sut.close();
      await balances.close();
      await payments.close();
    },
  };
};

/** The data of the payment.completed the payments service publishes for `p`. */
export const paymentCompleted = (
  p: SeededPayment,
  opts: SeedOptions = {},
): EventDataInput<'payment.completed'> => ({
  payment_id: p.id,
  merchant_id: p.merchant.merchantId,
  amount: p.amount,
  currency: p.currency,
  status: 'completed',
  tx_hash: p.txHash,
  from_address: p.fromAddress,
  to_address: randomAddress(),
  source_chain: opts.sourceChain ?? opts.crossChain?.source ?? p.blockchain,
  destination_chain: opts.crossChain?.destination ?? null,
  is_cross_chain: opts.crossChain !== undefined,
  customer_email: 'buyer@example.test',
  reference: null,
  metadata: {},
  completed_at: p.completedAt,
  ...(opts.receivedAmount !== undefined ? { received_amount: opts.receivedAmount } : {}),
});

/** Waits for the event about `refundId` (of `type`, when given) to reach the observer. */
export const waitForMessage = (
  observer: { messages: Array<Record<string, any>> },
  refundId: string,
  type?: string,
): Promise<Record<string, any>> =>
  waitFor(async () =>
    observer.messages.find((m) => m.data?.refund_id === refundId && (type === undefined || m.type === type)),
  );

/** Creates a refund through the API and returns its id (asserting 201). */
export const createRefund = async (
  h: Harness,
  p: SeededPayment,
  body: Record<string, unknown> = {},
): Promise<string> => {
  const res = await h.call('POST', '/refunds/api/create', {
    ...p.merchant,
    body: { paymentId: p.id, reason: 'requested_by_customer', ...body },
  });
  if (res.status !== 201) throw new Error(`refund not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
};

export const refundRow = (h: Harness, id: string) => h.db('refunds').where({ id }).first();

/** Waits until the refund has the status, and returns its detail view. */
export const waitForStatus = async (h: Harness, p: SeededPayment, id: string, status: string) =>
  waitFor(async () => {
    const res = await h.call('GET', `/refunds/api/${id}`, { ...p.merchant });
    return res.body?.data?.status === status ? res.body.data : undefined;
  });
