import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { CctpFeeResponse, type CctpFeeInputs, type CctpFeeQuote } from '@stablepay/contracts';
import { FeeInputsServer } from '../support/fee-inputs-server.js';
import {
  TEST_FEE_QUOTE_SECRET,
  paymentBody,
  randomTxHash,
  startHarness,
  type Harness,
  type TestMerchant,
} from '../support/harness.js';

/** Base at 2 gwei with ETH at 3000 USD: 265,000 gas cost 1.59 USD. */
const BASE_INPUTS: CctpFeeInputs = {
  blockchain: 'BASE',
  chainId: 31337,
  gasPriceWei: '2000000000',
  gasUnits: '265000',
  nativeToken: { symbol: 'ETH', decimals: 18, usdPrice: '3000', source: 'fixed' },
};
const ARB_INPUTS: CctpFeeInputs = { ...BASE_INPUTS, blockchain: 'ARB', chainId: 31338 };

/** The signature as the documentation defines it, computed independently of the service's code. */
const documentedSignature = (q: Omit<CctpFeeQuote, 'signature'>): string =>
  createHmac('sha256', TEST_FEE_QUOTE_SECRET)
    .update(
      JSON.stringify([
        'stablepay.cctp-fee-quote.v2',
        q.productPrice,
        q.amountToBurn,
        q.feeGas,
        q.feeCircle,
        q.feeTotal,
        q.totalUserPays,
        q.merchantReceives,
        q.destinationChain,
        q.validUntil,
        q.validForSeconds,
        q.breakdown.gasEstimateUSD,
        q.breakdown.gasWithBuffer,
        q.breakdown.minGasFee,
        q.breakdown.bufferPercent,
        q.quoteId,
      ]),
    )
    .digest('hex');

/** A quote re-signed with the service's key after a change: genuine, but with the changed values. */
const resigned = (quote: CctpFeeQuote, change: Partial<CctpFeeQuote>): CctpFeeQuote => {
  const { signature: _old, ...fields } = { ...quote, ...change };
  return { ...fields, signature: documentedSignature(fields) };
};

describe('cross-chain fee quotes (PostgreSQL + RabbitMQ + a stand-in chain-watcher)', function () {
  this.timeout(30_000);
  let h: Harness;
  let watcher: FeeInputsServer;
  let shop: TestMerchant;

  before(async () => {
    watcher = await new FeeInputsServer().set(BASE_INPUTS).set(ARB_INPUTS).start();
    h = await startHarness({ CHAIN_WATCHER_URL: watcher.url });
    shop = await h.seedMerchant({ wallet: true, currencies: ['USDC'] });
  });
  after(async () => {
    await h?.close();
    await watcher?.close();
  });

  const quote = async (destinationChain: string, productPrice: string) => {
    const res = await h.call(
      'GET',
      `/payments/cctp-fee?destinationChain=${destinationChain}&productPrice=${productPrice}`,
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as CctpFeeQuote;
  };
  /** A legacy-relayer payment from ARB into the shop's BASE wallet, paid with `feeQuote`. */
  const relayerPayment = (feeQuote: unknown, overrides: Record<string, unknown> = {}) =>
    paymentBody(shop, {
      chainId: 31338,
      isCrossChain: true,
      amount: (feeQuote as CctpFeeQuote).merchantReceives,
      expectedAmount: (feeQuote as CctpFeeQuote).amountToBurn,
      feeQuote,
      ...overrides,
    });
  const create = (body: unknown) => h.call('POST', '/payments/create-public', { body });
  const stored = async (txHash: string) => ({
    payments: await h.db('payments').where({ tx_hash: txHash }),
    events: await h.db('outbox').whereRaw(`envelope::text like ?`, [`%${txHash}%`]),
  });

  describe('GET /payments/cctp-fee', () => {
    it('prices the mint and transfer gas, the buffer and Circle’s fee exactly, and signs every field', async () => {
      const before = Math.floor(Date.now() / 1000);
      const res = await h.call('GET', '/payments/cctp-fee?destinationChain=BASE&productPrice=100');
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(CctpFeeResponse.safeParse(res.body).success).to.equal(true);
      const q = res.body.data as CctpFeeQuote;
      const { validUntil, signature, quoteId, ...rest } = q;
      expect(quoteId).to.match(/^[0-9a-f-]{36}$/);
      expect(rest).to.deep.equal({
        productPrice: 100,
        // 1.59 USD of gas + 20% = 1.908; 101.908 / (1 - 1 bp) rounded up to the micro-dollar
        amountToBurn: 101.918192,
        feeGas: 1.908,
        feeCircle: 0.010192,
        feeTotal: 1.918192,
        totalUserPays: 101.918192,
        merchantReceives: 100,
        destinationChain: 'BASE',
        validForSeconds: 300,
        breakdown: { gasEstimateUSD: 1.59, gasWithBuffer: 1.908, minGasFee: 0.5, bufferPercent: 20 },
      });
      expect(validUntil).to.be.within(before + 300, Math.floor(Date.now() / 1000) + 300);
      expect(signature).to.equal(documentedSignature({ ...rest, validUntil, quoteId }));
      // The chain-watcher was asked once, with a service token, for the destination chain.
      expect(watcher.requests.at(-1)).to.deep.equal({ destinationChain: 'BASE', caller: 'service' });
    });

    it('gives two quotes of the same figures in the same second apart, so each pays once', async () => {
      const [a, b] = await Promise.all([
        h.call('GET', '/payments/cctp-fee?destinationChain=BASE&productPrice=100'),
        h.call('GET', '/payments/cctp-fee?destinationChain=BASE&productPrice=100'),
      ]);
      expect(a.body.data.quoteId).not.to.equal(b.body.data.quoteId);
      expect(a.body.data.signature).not.to.equal(b.body.data.signature);
    });

    it('charges the minimum gas fee when gas is nearly free', async () => {
      watcher.set({ ...ARB_INPUTS, gasPriceWei: '1' });
      try {
        const q = await quote('ARB', '10.5');
        expect(q).to.include({ productPrice: 10.5, feeGas: 0.5, merchantReceives: 10.5 });
        expect(q.breakdown).to.deep.equal({
          gasEstimateUSD: 0,
          gasWithBuffer: 0,
          minGasFee: 0.5,
          bufferPercent: 20,
        });
        // 11.0 / 0.9999 = 11.0011001..., rounded up
        expect(q).to.include({ amountToBurn: 11.001101, feeCircle: 0.001101, feeTotal: 0.501101 });
      } finally {
        watcher.set(ARB_INPUTS);
      }
    });

    it('refuses a price outside the payment range or precision, and a chain the deployment does not serve', async () => {
      for (const [query, field] of [
        ['destinationChain=BASE&productPrice=0.001', 'productPrice'],
        ['destinationChain=BASE&productPrice=1000000.01', 'productPrice'],
        ['destinationChain=BASE&productPrice=1.0000001', 'productPrice'],
        ['destinationChain=BASE&productPrice=ten', 'productPrice'],
        ['destinationChain=BASE', 'productPrice'],
        ['destinationChain=DOGE&productPrice=10', 'destinationChain'],
        ['destinationChain=ETH&productPrice=10', 'destinationChain'],
      ] as const) {
        const asked = watcher.requests.length;
        const res = await h.call('GET', `/payments/cctp-fee?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.details.map((d: { path: string }) => d.path)).to.include(field);
        expect(watcher.requests.length, query).to.equal(asked);
      }
    });

    it('answers 503 with Retry-After when the chain-watcher fails, answers nonsense or is down', async () => {
      watcher.failing = true;
      try {
        const res = await h.call('GET', '/payments/cctp-fee?destinationChain=BASE&productPrice=10');
        expect(res.status).to.equal(503);
        expect(res.headers.get('retry-after')).to.equal('5');
        expect(res.body).to.deep.equal({
          success: false,
          error: 'Fee quotes for BASE are unavailable: its gas price cannot be read now',
          details: [],
        });
      } finally {
        watcher.failing = false;
      }
      watcher.rawAnswer = JSON.stringify({ success: true, data: { gasPriceWei: 'lots' } });
      try {
        expect(
          (await h.call('GET', '/payments/cctp-fee?destinationChain=BASE&productPrice=10')).status,
        ).to.equal(503);
      } finally {
        watcher.rawAnswer = undefined;
      }
      const down = await startHarness({ CHAIN_WATCHER_URL: 'http://127.0.0.1:9' });
      try {
        const res = await down.call('GET', '/payments/cctp-fee?destinationChain=BASE&productPrice=10');
        expect(res.status).to.equal(503);
        expect(res.body.success).to.equal(false);
        expect(JSON.stringify(res.body)).to.not.match(/127\.0\.0\.1|ECONNREFUSED/);
      } finally {
        await down.close();
      }
    });
  });

  describe('POST /payments/create-public with feeQuote', () => {
    it('records a payment paid with a genuine quote, and spends the quote with it', async () => {
      const q = await quote('BASE', '42.25');
      const body = relayerPayment(q);
      const res = await create(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data).to.include({ status: 'pending', isCrossChain: true });
      const [row] = (await stored(body.txHash as string)).payments;
      expect(row).to.include({
        bridge_provider: 'cctp_relayer',
        amount: '42.250000',
        // (42.25 + 1.908) / 0.9999 = 44.16241624..., rounded up
        expected_amount: '44.162417',
        destination_chain: 'BASE',
        source_chain: 'ARB',
      });
      expect(row.fee_quote).to.deep.equal(q);
      expect(await h.db('fee_quote_uses').where({ signature: q.signature })).to.have.length(1);
      // A resubmission of the same transaction is the same payment, quote or no quote.
      const again = await create(body);
      expect(again.status).to.equal(200);
      expect(again.body.data.paymentId).to.equal(res.body.data.paymentId);
    });

    it('lets a quote pay for one payment only (409), whatever the case of its signature', async () => {
      const q = await quote('BASE', '15');
      expect((await create(relayerPayment(q))).status).to.equal(201);
      for (const reused of [q, { ...q, signature: q.signature.toUpperCase() }]) {
        const body = relayerPayment(reused);
        const res = await create(body);
        expect(res.status).to.equal(409);
        expect(res.body.details[0]).to.include({ path: 'feeQuote', code: 'quote_used' });
        const nothing = await stored(body.txHash as string);
        expect(nothing.payments).to.have.length(0);
        expect(nothing.events).to.have.length(0);
      }
    });

    it('gives a quote raced by two payments to exactly one of them', async () => {
      const q = await quote('BASE', '7.5');
      const answers = await Promise.all([1, 2, 3].map(() => create(relayerPayment(q))));
      expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 409, 409]);
      expect(await h.db('payments').whereRaw(`fee_quote->>'signature' = ?`, [q.signature])).to.have.length(1);
    });

    it('refuses a forged or altered quote (400) and stores nothing', async () => {
      const q = await quote('BASE', '20');
      const forged = { ...q, signature: 'ab'.repeat(32) };
      // Lower the fees without re-signing: exactly what the signature is there to stop.
      const altered = { ...q, feeGas: 0.01, feeTotal: q.feeCircle + 0.01, amountToBurn: 20.02 };
      for (const bad of [forged, altered]) {
        const body = relayerPayment(bad);
        const res = await create(body);
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal({
          success: false,
          error: 'Fee quote signature is invalid',
          details: [
            {
              path: 'feeQuote.signature',
              message: 'The fee quote was not issued by this service or was changed after it was issued',
              code: 'quote_signature_invalid',
            },
          ],
        });
        const nothing = await stored(body.txHash as string);
        expect(nothing.payments).to.have.length(0);
        expect(nothing.events).to.have.length(0);
      }
      // Neither attempt spent the genuine quote.
      expect((await create(relayerPayment(q))).status).to.equal(201);
    });

    it('refuses an expired quote, one for another chain and one for another amount (400), leaving it unspent', async () => {
      const q = await quote('BASE', '30');
      const cases: Array<[string, Record<string, unknown>, string, string]> = [
        [
          'expired',
          { feeQuote: resigned(q, { validUntil: Math.floor(Date.now() / 1000) - 1 }) },
          'feeQuote.validUntil',
          'quote_expired',
        ],
        ['for ARB', { feeQuote: await quote('ARB', '30') }, 'feeQuote.destinationChain', 'quote_wrong_chain'],
        ['another amount', { amount: '29.99' }, 'amount', 'quote_amount_mismatch'],
        ['another burn', { expectedAmount: '30' }, 'expectedAmount', 'quote_amount_mismatch'],
      ];
      for (const [name, overrides, path, code] of cases) {
        const body = relayerPayment(q, overrides);
        if (overrides.feeQuote) {
          body.amount = (overrides.feeQuote as CctpFeeQuote).merchantReceives;
          body.expectedAmount = (overrides.feeQuote as CctpFeeQuote).amountToBurn;
        }
        const res = await create(body);
        expect(res.status, name).to.equal(400);
        const detail = res.body.details.find((d: { path: string }) => d.path === path);
        expect(detail?.code, name).to.equal(code);
        expect((await stored(body.txHash as string)).payments, name).to.have.length(0);
      }
      // A refused payment did not spend the quote: the matching one still goes through.
      expect((await create(relayerPayment(q))).status).to.equal(201);
    });

    it('refuses a quote for a chain other than the one the payment names as destination', async () => {
      const q = await quote('BASE', '12');
      const res = await create(relayerPayment(q, { destinationChainId: 31338 }));
      expect(res.status).to.equal(400);
      expect(res.body.details).to.deep.include({
        path: 'feeQuote.destinationChain',
        message: 'The fee quote is for BASE; this payment settles on ARB',
        code: 'quote_wrong_chain',
      });
    });

    it('accepts a quote without expectedAmount (optional for cross-chain payments)', async () => {
      const q = await quote('BASE', '5');
      const res = await create(relayerPayment(q, { expectedAmount: undefined, txHash: randomTxHash() }));
      expect(res.status).to.equal(201);
    });
  });
});
