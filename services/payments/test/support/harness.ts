import { randomBytes, randomUUID } from 'node:crypto';
import { parseChainRegistry, type BlockchainName, type Currency } from '@stablepay/contracts';
import { bootService, waitFor, type CallOptions, type ServiceUnderTest } from '@stablepay/platform/testing';
import { paymentsService, type PaymentsConfig, type PaymentsContext } from '../../src/index.js';

export const randomTxHash = (): string => `0x${randomBytes(32).toString('hex')}`;
export const randomAddress = (): string => `0x${randomBytes(20).toString('hex')}`;

/** The chains the tests pay on: ids no public network uses, one same-chain and one cross-chain source. */
export const TEST_CHAIN_REGISTRY = parseChainRegistry({
  network: 'devnet',
  chains: [
    {
      name: 'BASE',
      chainId: 31337,
      cctpDomain: 6,
      rpcUrls: ['http://127.0.0.1:8545'],
      confirmations: 1,
      tokens: {},
    },
    {
      name: 'ARB',
      chainId: 31338,
      cctpDomain: 3,
      rpcUrls: ['http://127.0.0.1:8546'],
      confirmations: 1,
      tokens: {},
    },
  ],
});

/** The fee-quote signing key every payments service under test is configured with. */
export const TEST_FEE_QUOTE_SECRET = 'test-fee-quote-secret-0123456789abcdef';

export interface TestMerchant {
  merchantId: string;
  publicId: string;
  wallet?: string;
}

/** Call options of a request made with `merchant`'s credential (an API key unless `caller` says otherwise). */
export const actingAs = (merchant: TestMerchant): CallOptions => ({
  merchantId: merchant.merchantId,
  merchantPublicId: merchant.publicId,
});

export interface Harness extends ServiceUnderTest<PaymentsConfig, PaymentsContext> {
  seedMerchant(opts?: {
    currencies?: Currency[];
    wallet?: boolean;
    blockchain?: BlockchainName;
  }): Promise<TestMerchant>;
}

/** The real service (platform test kit), on the test chains, with a fast session sweeper. */
export const startHarness = async (env: Record<string, string> = {}): Promise<Harness> => {
  const sut = await bootService(paymentsService, {
    env: {
      CHECKOUT_URL: 'https://pay.example.test/',
      CHAIN_REGISTRY: JSON.stringify(TEST_CHAIN_REGISTRY),
      CHECKOUT_EXPIRY_SWEEP_MS: '100',
      FEE_QUOTE_SECRET: TEST_FEE_QUOTE_SECRET,
      // Nothing listens here: a test that quotes fees starts its own stand-in and points at it.
      CHAIN_WATCHER_URL: 'http://127.0.0.1:9',
      ...env,
    },
  });
  return { ...sut, seedMerchant: (opts) => seedMerchant(sut, opts) };
};

/** A merchant as the gateway announces it (merchant.created, then wallet.assigned), once projected. */
const seedMerchant = async (
  sut: ServiceUnderTest<PaymentsConfig, PaymentsContext>,
  opts: { currencies?: Currency[]; wallet?: boolean; blockchain?: BlockchainName } = {},
): Promise<TestMerchant> => {
  const merchantId = randomUUID();
  const merchant: TestMerchant = { merchantId, publicId: `sp_live_${randomUUID()}` };
  await sut.publish('merchant.created', {
    merchantId,
    publicId: merchant.publicId,
    name: 'Test Shop',
    blockchain: opts.blockchain ?? 'BASE',
    acceptedCurrencies: opts.currencies ?? ['USDC', 'EURC'],
    email: 'shop@example.test',
  });
  await waitFor(() => sut.db('merchants').where({ merchant_id: merchantId }).first());
  if (opts.wallet) {
    merchant.wallet = randomAddress();
    await sut.publish(
      'wallet.assigned',
      { merchantId, walletId: randomUUID(), address: merchant.wallet, blockchain: 'BASE', chainId: 31337 },
      { producer: 'chain-watcher' },
    );
    await waitFor(() =>
      sut.db('merchants').where({ merchant_id: merchantId }).whereNotNull('wallet_address').first(),
    );
  }
  return merchant;
};

/** A valid same-chain create-public body for `merchant`, with overrides. */
/** A create-public body as tests send it: the usual fields typed, anything else (bad input) allowed. */
export type TestPaymentBody = {
  merchantId: string;
  txHash: string;
  amount: number | string;
  expectedAmount?: number | string;
  token: string;
  chainId: number;
  fromAddress: string;
  toAddress: string;
  customerEmail: string;
} & Record<string, unknown>;

export const paymentBody = (
  merchant: TestMerchant,
  overrides: Record<string, unknown> = {},
): TestPaymentBody => ({
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
