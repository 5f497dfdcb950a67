import { createSecretKey } from 'node:crypto';
import { expect } from 'chai';
import { keccak256, toUtf8Bytes } from 'ethers';
import type { CctpFeeInputs, GaslessQuote } from '@stablepay/contracts';
import { FEE_UNITS_PER_WHOLE } from '../../src/fee-quote/arithmetic.js';
import { isGenuineGaslessQuote, signGaslessQuote } from '../../src/gasless/quote-signature.js';
import { authorizedTotal, cctpBurnFee, gaslessNonce, relayGasFee } from '../../src/gasless/terms.js';

const ETH_AT = (usdPrice: string, gasPriceWei: string): CctpFeeInputs => ({
  blockchain: 'BASE',
  chainId: 8453,
  gasPriceWei,
  gasUnits: '0',
  nativeToken: { symbol: 'ETH', decimals: 18, usdPrice, source: 'fixed' },
});

describe('gasless terms', () => {
  it('derives the nonce from the merchant and the session or intent, as documented', () => {
    const merchant = '3f1c2b9e-2a57-4a63-9e1f-0c6f1a7d8b10';
    expect(gaslessNonce(merchant, 'cs_live_abc')).to.equal(
      keccak256(toUtf8Bytes(`stablepay:gasless:v1:${merchant}:cs_live_abc`)),
    );
    expect(gaslessNonce(merchant, 'cs_live_abc')).to.not.equal(gaslessNonce(merchant, 'cs_live_abd'));
    expect(gaslessNonce(merchant, 'x')).to.match(/^0x[0-9a-f]{64}$/);
  });

  it("prices the relay's gas exactly and rounds up to the base unit", () => {
    // 90,000 × 2 gwei = 0.00018 ETH at 3000 USD = 0.54 USD exactly
    expect(relayGasFee(90_000n, ETH_AT('3000', '2000000000'))).to.equal(540_000n);
    // 21,000 × 1 wei at 3000 USD is 6.3e-11 USD: still one base unit, never zero
    expect(relayGasFee(21_000n, ETH_AT('3000', '1'))).to.equal(1n);
    // a price with decimals: 100,000 × 0.01 gwei at 2512.345678 USD = 0.002512345678 → 0.002513
    expect(relayGasFee(100_000n, ETH_AT('2512.345678', '10000000'))).to.equal(2_513n);
  });

  it("grosses the burn up for Circle's fee when the customer bears it, takes it from the amount otherwise", () => {
    const units = 1000n; // 1 bp
    for (const amount of [1n, 999n, 25_000_000n, 123_456_789n, 10n ** 12n + 7n]) {
      const fee = cctpBurnFee(amount, units, 'customer');
      const burn = amount + fee;
      const circle = (b: bigint) => (b * units + FEE_UNITS_PER_WHOLE - 1n) / FEE_UNITS_PER_WHOLE;
      expect(burn - circle(burn) >= amount, String(amount)).to.equal(true);
      expect(burn - 1n - circle(burn - 1n) < amount, String(amount)).to.equal(true);
      expect(cctpBurnFee(amount, units, 'merchant')).to.equal(circle(amount));
    }
    expect(cctpBurnFee(25_000_000n, 0n, 'customer')).to.equal(0n);
    expect(authorizedTotal(100n, 5n, 1n, 'customer')).to.equal(106n);
    expect(authorizedTotal(100n, 5n, 1n, 'merchant')).to.equal(100n);
  });

  it('signs every value of a quote: any change, another key or a cut signature is refused', () => {
    const key = createSecretKey(Buffer.from('k'.repeat(32)));
    const quote = signGaslessQuote(key, {
      quoteId: '0b6f2a4e-5c1d-4f8e-9a3b-7c2d1e0f9a8b',
      merchantId: 'sp_live_0b6f2a4e-5c1d-4f8e-9a3b-7c2d1e0f9a8b',
      sessionId: null,
      chainId: 8453,
      token: 'USDC',
      destinationChainId: null,
      amount: '10.000000',
      networkFee: '0.010000',
      cctpFee: '0.000000',
      feeBearer: 'customer',
      total: '10.010000',
      authorization: {
        to: '0x00000000000000000000000000000000000000aa',
        value: '10010000',
        nonce: `0x${'1'.repeat(64)}`,
        validBefore: '1800000000',
      },
      domain: {
        name: 'USD Coin',
        version: '2',
        chainId: 8453,
        verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      },
      expiresAt: '2027-01-01T00:00:00.000Z',
    });
    expect(isGenuineGaslessQuote(key, quote)).to.equal(true);
    // The same addresses in another casing are the same quote.
    const recased: GaslessQuote = {
      ...quote,
      domain: { ...quote.domain, verifyingContract: quote.domain.verifyingContract.toLowerCase() },
    };
    expect(isGenuineGaslessQuote(key, recased)).to.equal(true);
    const changes: Array<Partial<GaslessQuote>> = [
      { total: '10.000000' },
      { feeBearer: 'merchant' },
      { sessionId: 'cs_live_other' },
      { authorization: { ...quote.authorization, value: '10000000' } },
      { domain: { ...quote.domain, name: 'USDC' } },
      { expiresAt: '2027-01-01T00:00:01.000Z' },
    ];
    for (const change of changes) expect(isGenuineGaslessQuote(key, { ...quote, ...change })).to.equal(false);
    expect(isGenuineGaslessQuote(createSecretKey(Buffer.from('j'.repeat(32))), quote)).to.equal(false);
    expect(isGenuineGaslessQuote(key, { ...quote, signature: quote.signature.slice(0, 62) })).to.equal(false);
  });
});
