import { createSecretKey, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { EmbeddedPostgres, createDatabase, migrate } from '@stablepay/platform';
import { createTestDatabase } from '@stablepay/platform/testing';
import { paymentsRecording, type PaymentsContext } from '../../src/context.js';
import { paymentsMigrations } from '../../src/db/migrations.js';
import { upsertMerchant } from '../../src/merchants/merchants-repo.js';
import { MerchantCache } from '../../src/merchants/merchant-cache.js';
import { TEST_CHAIN_REGISTRY, TEST_FEE_QUOTE_SECRET } from './harness.js';

export interface Backend {
  name: string;
  open(): Promise<{ db: Knex; close(): Promise<void> }>;
}

/** The same test bodies run against real PostgreSQL and against PGlite (the embedded default). */
export const backends: Backend[] = [
  {
    name: 'PostgreSQL',
    open: async () => {
      const t = await createTestDatabase();
      const db = await createDatabase({ url: t.url, schema: 'payments' });
      return {
        db,
        close: async () => {
          await db.destroy();
          await t.drop();
        },
      };
    },
  },
  {
    name: 'PGlite',
    open: async () => {
      const embedded = await EmbeddedPostgres.open();
      const db = await createDatabase({ embedded, schema: 'payments' });
      return {
        db,
        close: async () => {
          await db.destroy();
          await embedded.close();
        },
      };
    },
  },
];

export const migrated = async (db: Knex): Promise<void> => migrate(db, 'payments', paymentsMigrations);

/** The key quotes are signed with in these tests. */
export const TEST_FEE_QUOTE_KEY = createSecretKey(Buffer.from(TEST_FEE_QUOTE_SECRET));

export const testContext = (db: Knex, overrides: Partial<PaymentsContext> = {}): PaymentsContext => ({
  db,
  chains: TEST_CHAIN_REGISTRY,
  checkoutUrl: 'https://pay.example.test/',
  sessionIdPrefix: 'cs_live_',
  allowInsecureUrls: false,
  feeQuotes: {
    key: TEST_FEE_QUOTE_KEY,
    validForSeconds: 300,
    bufferBps: 2000n,
    minGasFee: 500_000n,
    attestationFeeUnits: 1000n,
    inputs: {
      feeInputs: () => Promise.reject(new Error('these tests issue no quotes')),
    },
  },
  gasless: {
    relay: {
      tokenDomain: () => Promise.reject(new Error('these tests take no gasless payments')),
      relayerOn: () => Promise.reject(new Error('these tests take no gasless payments')),
      check: () => Promise.reject(new Error('these tests take no gasless payments')),
      gasEstimate: () => Promise.reject(new Error('these tests take no gasless payments')),
    },
    feeBearer: 'customer',
    payerLimitPerMinute: 5,
  },
  now: () => new Date(),
  ...paymentsRecording(() => undefined),
  merchantCache: new MerchantCache(),
  ...overrides,
});

export const addMerchant = async (db: Knex, currencies: Array<'USDC' | 'EURC'> = ['USDC', 'EURC']) => {
  const merchantId = randomUUID();
  const publicId = `sp_live_${randomUUID()}`;
  await upsertMerchant(db, {
    merchantId,
    publicId,
    name: 'Shop',
    blockchain: 'BASE',
    acceptedCurrencies: currencies,
    email: 'a@b.c',
  });
  return { merchantId, publicId };
};
