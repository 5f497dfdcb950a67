import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { CreateCheckoutSessionBody, CreatePublicPaymentBody } from '@stablepay/contracts';
import { isAppError } from '@stablepay/platform';
import { createCheckoutSession } from '../../src/checkout/sessions.js';
import type { PaymentsContext } from '../../src/context.js';
import { signQuote } from '../../src/fee-quote/signature.js';
import type { NewPaymentRow } from '../../src/payments/payments-repo.js';
import { TEST_FEE_QUOTE_KEY, testContext } from './backends.js';
import { proveSession } from './session-proof.js';

/** What the domain suites (run on PostgreSQL and on PGlite) share. */

export const hash = (): string => `0x${randomBytes(32).toString('hex')}`;
export const addr = (): string => `0x${randomBytes(20).toString('hex')}`;

/** A quote of the legacy relayer flow, the one that walks the intermediate cross-chain states. */
export const relayerFeeQuote = signQuote(TEST_FEE_QUOTE_KEY, {
  productPrice: 12.5,
  amountToBurn: 12.7,
  feeGas: 0.1,
  feeCircle: 0.1,
  feeTotal: 0.2,
  totalUserPays: 12.7,
  merchantReceives: 12.5,
  destinationChain: 'BASE',
  validUntil: 1_900_000_000,
  validForSeconds: 300,
  quoteId: '0b7f9c1e-8e2a-4f7d-9a51-2d6c3b4a5e61',
  breakdown: { gasEstimateUSD: 0.05, gasWithBuffer: 0.06, minGasFee: 0.1, bufferPercent: 20 },
});

export const rejects = async (p: Promise<unknown>, status: number): Promise<void> => {
  try {
    await p;
  } catch (err) {
    expect(isAppError(err), String(err)).to.equal(true);
    expect((err as { status: number }).status).to.equal(status);
    return;
  }
  expect.fail(`expected a ${status} error`);
};

/** Helpers bound to one suite's database (read when called, so `before` may open it). */
export const domainHelpers = (database: () => Knex) => {
  const ctx = (): PaymentsContext => testContext(database());
  const row = (merchantId: string, o: Partial<NewPaymentRow> = {}): NewPaymentRow => ({
    id: randomUUID(),
    merchant_id: merchantId,
    tx_hash: hash(),
    amount: '10.000000',
    expected_amount: '10.000000',
    currency: 'USDC',
    status: 'pending',
    from_address: addr(),
    to_address: addr(),
    source_chain: 'BASE',
    source_chain_id: 8453,
    destination_chain: null,
    destination_chain_id: null,
    is_cross_chain: false,
    bridge_provider: null,
    burn_tx_hash: null,
    mint_tx_hash: null,
    fee_quote: null,
    customer_email: 'buyer@example.test',
    reference: null,
    description: null,
    metadata: '{}',
    ...o,
  });

  /** An open checkout session of 12.5 USDC for the merchant. */
  const openSession = async (merchantId: string) =>
    (
      await createCheckoutSession(
        ctx(),
        merchantId,
        CreateCheckoutSessionBody.parse({ amount: '12.5', return_url: 'https://x.test/r' }),
      )
    ).session;

  // A session payment comes with the payer's proof, as the checkout page sends it.
  const body = (publicId: string, o: Record<string, unknown> = {}) =>
    CreatePublicPaymentBody.parse(
      proveSession({
        merchantId: publicId,
        txHash: hash(),
        amount: '12.5',
        expectedAmount: '12.5',
        token: 'USDC',
        chainId: 31337,
        fromAddress: addr(),
        toAddress: addr(),
        customerEmail: 'buyer@example.test',
        ...o,
      }),
    );

  const outbox = async (type: string, key: string, value: string) =>
    (await database()('outbox').where({ type }))
      .filter((r) => {
        const env = typeof r.envelope === 'string' ? JSON.parse(r.envelope) : r.envelope;
        return env.data[key] === value;
      })
      .map((r) => (typeof r.envelope === 'string' ? JSON.parse(r.envelope) : r.envelope));
  return { ctx, row, openSession, body, outbox };
};
