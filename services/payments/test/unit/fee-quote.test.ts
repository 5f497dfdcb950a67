import { expect } from 'chai';
import { createHmac, createSecretKey, randomInt } from 'node:crypto';
import type { CctpFeeInputs } from '@stablepay/contracts';
import {
  FEE_UNITS_PER_WHOLE,
  divRoundHalfUp,
  gasCostMicroUsd,
  quoteAmounts,
  type FeePolicy,
} from '../../src/fee-quote/arithmetic.js';
import {
  canonicalQuote,
  isGenuineQuote,
  signQuote,
  type UnsignedQuote,
} from '../../src/fee-quote/signature.js';

const inputs = (over: Partial<CctpFeeInputs> & { usdPrice?: string } = {}): CctpFeeInputs => ({
  blockchain: 'BASE',
  chainId: 8453,
  gasPriceWei: over.gasPriceWei ?? '2000000000',
  gasUnits: over.gasUnits ?? '265000',
  nativeToken: { symbol: 'ETH', decimals: 18, usdPrice: over.usdPrice ?? '3000', source: 'fixed' },
});

const policy: FeePolicy = { bufferBps: 2000n, minGasFee: 500_000n, attestationFeeUnits: 1000n };

describe('fee quote arithmetic', () => {
  it('rounds half-up to the micro-dollar', () => {
    expect(divRoundHalfUp(5n, 2n)).to.equal(3n);
    expect(divRoundHalfUp(7n, 2n)).to.equal(4n);
    expect(divRoundHalfUp(149n, 100n)).to.equal(1n);
    expect(divRoundHalfUp(150n, 100n)).to.equal(2n);
    expect(divRoundHalfUp(0n, 7n)).to.equal(0n);
  });

  it('prices gas exactly: units × wei per gas × USD per coin', () => {
    // 265,000 gas at 2 gwei = 0.00053 ETH; at 3000 USD that is 1.59 USD
    expect(gasCostMicroUsd(inputs())).to.equal(1_590_000n);
    // 1 gas at 0.5 gwei and 3000 USD = 1.5 micro-dollars: half rounds up
    expect(gasCostMicroUsd(inputs({ gasUnits: '1', gasPriceWei: '500000000' }))).to.equal(2n);
    // ... and 1.4999... rounds down
    expect(gasCostMicroUsd(inputs({ gasUnits: '1', gasPriceWei: '499999999' }))).to.equal(1n);
    // fractional prices keep all their digits
    expect(
      gasCostMicroUsd(inputs({ gasUnits: '1000000', gasPriceWei: '1000000000', usdPrice: '0.123456789' })),
    ).to.equal(123n);
  });

  it('adds the buffer, applies the minimum and grosses the burn up for Circle’s fee', () => {
    const a = quoteAmounts(100_000_000n, inputs(), policy);
    expect(a).to.deep.equal({
      productPrice: 100_000_000n,
      gasEstimate: 1_590_000n,
      gasWithBuffer: 1_908_000n,
      feeGas: 1_908_000n,
      // 101.908 / 0.9999 = 101.9181918..., rounded up to the micro-dollar
      amountToBurn: 101_918_192n,
      feeCircle: 10_192n,
      feeTotal: 1_918_192n,
    });
    const cheap = quoteAmounts(10_000_000n, inputs({ gasPriceWei: '1' }), policy);
    expect(cheap).to.include({ gasEstimate: 0n, gasWithBuffer: 0n, feeGas: 500_000n });
    const free = quoteAmounts(10_000_000n, inputs({ gasPriceWei: '1' }), {
      ...policy,
      attestationFeeUnits: 0n,
    });
    expect(free).to.include({ feeCircle: 0n, amountToBurn: 10_500_000n, feeTotal: 500_000n });
  });

  it('burns the least amount that leaves the merchant whole however Circle rounds its fee', () => {
    for (let i = 0; i < 500; i++) {
      const price = BigInt(randomInt(10_000, 1_000_000_000_000));
      const fee = { ...policy, attestationFeeUnits: BigInt(randomInt(0, 140_001)) };
      const a = quoteAmounts(price, inputs({ gasPriceWei: String(randomInt(1, 500_000_000_000)) }), fee);
      const net = price + a.feeGas;
      const circleUp = (burn: bigint) =>
        (burn * fee.attestationFeeUnits + FEE_UNITS_PER_WHOLE - 1n) / FEE_UNITS_PER_WHOLE;
      expect(a.amountToBurn - circleUp(a.amountToBurn) >= net, `price ${price}`).to.equal(true);
      // one micro-USDC less would fall short at Circle's exact rate
      const oneLess = a.amountToBurn - 1n;
      expect(oneLess * (FEE_UNITS_PER_WHOLE - fee.attestationFeeUnits) < net * FEE_UNITS_PER_WHOLE).to.equal(
        true,
      );
      expect(a.feeTotal).to.equal(a.feeGas + a.feeCircle);
      expect(a.amountToBurn).to.equal(price + a.feeTotal);
    }
  });
});

describe('fee quote signature', () => {
  const secret = 'unit-test-fee-quote-secret-0123456789';
  const key = createSecretKey(Buffer.from(secret));
  const unsigned: UnsignedQuote = {
    productPrice: 100,
    amountToBurn: 101.918192,
    feeGas: 1.908,
    feeCircle: 0.010192,
    feeTotal: 1.918192,
    totalUserPays: 101.918192,
    merchantReceives: 100,
    destinationChain: 'BASE',
    validUntil: 1_900_000_000,
    validForSeconds: 300,
    quoteId: '0b7f9c1e-8e2a-4f7d-9a51-2d6c3b4a5e61',
    breakdown: { gasEstimateUSD: 1.59, gasWithBuffer: 1.908, minGasFee: 0.5, bufferPercent: 20 },
  };

  it('signs the documented canonical form with HMAC-SHA256', () => {
    const canonical =
      '["stablepay.cctp-fee-quote.v2",100,101.918192,1.908,0.010192,1.918192,101.918192,100,"BASE",1900000000,300,1.59,1.908,0.5,20,"0b7f9c1e-8e2a-4f7d-9a51-2d6c3b4a5e61"]';
    expect(canonicalQuote(unsigned)).to.equal(canonical);
    const quote = signQuote(key, unsigned);
    expect(quote.signature).to.equal(createHmac('sha256', secret).update(canonical).digest('hex'));
    expect(isGenuineQuote(key, quote)).to.equal(true);
    // The order in which a client sends the fields back does not matter, and neither does hex case.
    const reordered = JSON.parse(JSON.stringify({ signature: quote.signature.toUpperCase(), ...unsigned }));
    expect(isGenuineQuote(key, reordered)).to.equal(true);
  });

  it('refuses any changed value, another key, and a truncated signature', () => {
    const quote = signQuote(key, unsigned);
    expect(isGenuineQuote(key, { ...quote, feeGas: 1.907 })).to.equal(false);
    expect(isGenuineQuote(key, { ...quote, destinationChain: 'ARB' })).to.equal(false);
    expect(isGenuineQuote(key, { ...quote, validUntil: quote.validUntil + 1 })).to.equal(false);
    expect(isGenuineQuote(key, { ...quote, breakdown: { ...quote.breakdown, bufferPercent: 0 } })).to.equal(
      false,
    );
    expect(isGenuineQuote(createSecretKey(Buffer.from(`${secret}!`)), quote)).to.equal(false);
    expect(isGenuineQuote(key, { ...quote, signature: quote.signature.slice(0, 62) })).to.equal(false);
  });
});
