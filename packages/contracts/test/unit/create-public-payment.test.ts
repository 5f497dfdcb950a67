import { expect } from 'chai';
import {
  CreatePublicPaymentBody,
  decimalToBaseUnits,
  zodIssuesToDetails,
  type CreatePublicPaymentInput,
} from '../../src/index.js';

const UUID = '123e4567-e89b-12d3-a456-426614174000';
const HASH = `0x${'ab'.repeat(32)}`;

function body(overrides: Record<string, unknown> = {}): CreatePublicPaymentInput {
  return {
    merchantId: `acme_live_${UUID}`,
    txHash: HASH,
    amount: 25,
    expectedAmount: 25,
    token: 'USDC',
    chainId: 8453,
    fromAddress: `0x${'11'.repeat(20)}`,
    toAddress: `0x${'22'.repeat(20)}`,
    customerEmail: 'buyer@example.com',
    ...overrides,
  } as CreatePublicPaymentInput;
}

function fails(input: unknown, path: string): void {
  const result = CreatePublicPaymentBody.safeParse(input);
  expect(result.success, `expected failure at ${path}`).to.equal(false);
  const paths = zodIssuesToDetails(result.error!.issues).map((d) => d.path);
  expect(paths).to.include(path);
}

function parses(input: unknown) {
  const result = CreatePublicPaymentBody.safeParse(input);
  expect(result.success, JSON.stringify(result.error?.issues)).to.equal(true);
  return result.data!;
}

const crossChain = {
  isCrossChain: true,
  expectedAmount: undefined,
  bridgeKit: { burnTxHash: `0x${'cd'.repeat(32)}` },
  destinationChainId: 1,
};

describe('CreatePublicPaymentBody', () => {
  it('accepts a valid same-chain payment and ignores unknown fields', () => {
    const data = parses(body({ somethingElse: 1 }));
    expect(data).to.not.have.property('somethingElse');
    expect(data.amount).to.equal('25.000000');
  });

  describe('merchantId', () => {
    it('accepts live and test forms', () => {
      parses(body({ merchantId: `sp_live_${UUID}` }));
      parses(body({ merchantId: `sp_test_${UUID}` }));
    });
    for (const bad of [
      UUID,
      `live_${UUID}`,
      `Acme_live_${UUID}`,
      `acme_prod_${UUID}`,
      `acme_live_${UUID}x`,
      `abcdefghijklmnopq_live_${UUID}`,
    ]) {
      it(`rejects ${bad.slice(0, 24)}…`, () => fails(body({ merchantId: bad }), 'merchantId'));
    }
  });

  it('requires a 0x-prefixed 32-byte txHash and lower-cases it', () => {
    fails(body({ txHash: 'ab'.repeat(32) }), 'txHash');
    fails(body({ txHash: `0x${'ab'.repeat(31)}` }), 'txHash');
    fails(body({ txHash: `0x${'zz'.repeat(32)}` }), 'txHash');
    expect(parses(body({ txHash: HASH.toUpperCase().replace('0X', '0x') })).txHash).to.equal(HASH);
  });

  describe('amount', () => {
    it('accepts the boundaries 0.01 and 1000000', () => {
      expect(parses(body({ amount: 0.01 })).amount).to.equal('0.010000');
      expect(parses(body({ amount: 1000000 })).amount).to.equal('1000000.000000');
      expect(parses(body({ amount: '1000000.000000' })).amount).to.equal('1000000.000000');
    });
    it('rejects below 0.01 and above 1000000', () => {
      fails(body({ amount: 0.009 }), 'amount');
      fails(body({ amount: '0.009999' }), 'amount');
      fails(body({ amount: 1000000.01 }), 'amount');
      fails(body({ amount: '1000000.000001' }), 'amount');
      fails(body({ amount: 0 }), 'amount');
      fails(body({ amount: -5 }), 'amount');
    });
    it('rejects more than 6 decimals instead of rounding', () => {
      fails(body({ amount: 1.1234567 }), 'amount');
      fails(body({ amount: '1.1234567' }), 'amount');
      fails(body({ amount: 0.1 + 0.2 }), 'amount');
      expect(parses(body({ amount: 1.123456 })).amount).to.equal('1.123456');
    });
    it('rejects non-numeric and non-finite input', () => {
      for (const bad of [
        '',
        'abc',
        '1e3',
        '1,5',
        ' 1',
        '0x10',
        Number.NaN,
        Number.POSITIVE_INFINITY,
        true,
        null,
      ]) {
        fails(body({ amount: bad }), 'amount');
      }
    });
    it('keeps amounts exact in base units', () => {
      const a = decimalToBaseUnits(parses(body({ amount: 0.1 })).amount);
      const b = decimalToBaseUnits(parses(body({ amount: 0.2 })).amount);
      const c = decimalToBaseUnits(parses(body({ amount: '0.3' })).amount);
      expect(a).to.equal(100000n);
      expect(a + b).to.equal(c);
      expect(parses(body({ amount: 0.1 })).amount).to.equal('0.100000');
    });
    it('applies the same rules to expectedAmount', () => {
      fails(body({ expectedAmount: 0.009 }), 'expectedAmount');
      fails(body({ expectedAmount: 1000000.01 }), 'expectedAmount');
      fails(body({ expectedAmount: '1.0000001' }), 'expectedAmount');
      expect(parses(body({ expectedAmount: '12.5' })).expectedAmount).to.equal('12.500000');
    });
  });

  it('accepts only USDC and EURC', () => {
    parses(body({ token: 'EURC' }));
    fails(body({ token: 'USDT' }), 'token');
    fails(body({ token: 'usdc' }), 'token');
  });

  it('requires a positive integer chainId', () => {
    for (const bad of [0, -1, 1.5, '8453']) fails(body({ chainId: bad }), 'chainId');
  });

  it('requires EVM addresses', () => {
    fails(body({ fromAddress: '0x1234' }), 'fromAddress');
    fails(body({ toAddress: `${'22'.repeat(20)}` }), 'toAddress');
  });

  describe('customerEmail', () => {
    it('is required and must be an e-mail address', () => {
      const { customerEmail: _omit, ...rest } = body();
      fails(rest, 'customerEmail');
      fails(body({ customerEmail: 'not-an-email' }), 'customerEmail');
    });
    it('accepts 255 chars and rejects 256', () => {
      const email = (n: number) =>
        `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(n)}.com`;
      expect(email(58)).to.have.length(255);
      expect(parses(body({ customerEmail: email(58) })).customerEmail).to.equal(email(58));
      expect(email(59)).to.have.length(256);
      fails(body({ customerEmail: email(59) }), 'customerEmail');
    });
  });

  it('limits reference to 255 and description to 500 chars', () => {
    parses(body({ reference: 'r'.repeat(255), description: 'd'.repeat(500) }));
    fails(body({ reference: 'r'.repeat(256) }), 'reference');
    fails(body({ description: 'd'.repeat(501) }), 'description');
  });

  it('limits metadata to 10 KB of JSON', () => {
    // {"k":"<v>"} = 8 bytes of framing
    parses(body({ metadata: { k: 'v'.repeat(10240 - 8) } }));
    fails(body({ metadata: { k: 'v'.repeat(10240 - 7) } }), 'metadata');
    fails(body({ metadata: { k: 'é'.repeat(6000) } }), 'metadata');
    fails(body({ metadata: 'text' }), 'metadata');
    fails(body({ metadata: [1, 2] }), 'metadata');
  });

  it('accepts checkout session ids in live and test form', () => {
    parses(body({ sessionId: `cs_live_${UUID}` }));
    parses(body({ sessionId: `cs_test_${UUID}` }));
    fails(body({ sessionId: `cs_${UUID}` }), 'sessionId');
  });

  describe('cross-field rules', () => {
    it('requires expectedAmount for same-chain payments', () => {
      fails(body({ expectedAmount: undefined }), 'expectedAmount');
      fails(body({ expectedAmount: undefined, isCrossChain: false }), 'expectedAmount');
    });
    it('makes expectedAmount optional for cross-chain payments', () => {
      const data = parses(body(crossChain));
      expect(data.isCrossChain).to.equal(true);
      expect(data.bridgeKit?.burnTxHash).to.equal(`0x${'cd'.repeat(32)}`);
    });
    it('allows bridgeKit and feeQuote only for cross-chain payments', () => {
      fails(body({ bridgeKit: crossChain.bridgeKit }), 'bridgeKit');
      fails(body({ feeQuote: feeQuote() }), 'feeQuote');
      parses(body({ ...crossChain, bridgeKit: undefined, feeQuote: feeQuote() }));
    });
    it('requires bridgeKit or feeQuote for cross-chain payments, naming bridgeKit', () => {
      const result = CreatePublicPaymentBody.safeParse(body({ ...crossChain, bridgeKit: undefined }));
      expect(result.success).to.equal(false);
      const details = zodIssuesToDetails(result.error!.issues);
      expect(details.map((d) => d.path)).to.deep.equal(['bridgeKit']);
      expect(details[0]!.message).to.include('feeQuote');
      parses(body(crossChain));
      parses(body({ ...crossChain, bridgeKit: undefined, feeQuote: feeQuote() }));
    });
    it('validates the bridgeKit hashes and the fee quote shape', () => {
      fails(body({ ...crossChain, bridgeKit: { burnTxHash: '0x12' } }), 'bridgeKit.burnTxHash');
      fails(
        body({ ...crossChain, bridgeKit: { burnTxHash: HASH, mintTxHash: 'x' } }),
        'bridgeKit.mintTxHash',
      );
      fails(body({ ...crossChain, feeQuote: { ...feeQuote(), feeGas: '1' } }), 'feeQuote.feeGas');
      fails(body({ ...crossChain, destinationChainId: 0 }), 'destinationChainId');
    });
  });
});

function feeQuote() {
  return {
    productPrice: 10,
    amountToBurn: 10.2,
    feeGas: 0.1,
    feeCircle: 0.1,
    feeTotal: 0.2,
    totalUserPays: 10.2,
    merchantReceives: 10,
    destinationChain: 'BASE',
    validUntil: 1_900_000_000,
    validForSeconds: 300,
    quoteId: '0b7f9c1e-8e2a-4f7d-9a51-2d6c3b4a5e61',
    breakdown: { gasEstimateUSD: 0.05, gasWithBuffer: 0.06, minGasFee: 0.1, bufferPercent: 20 },
    signature: 'ab'.repeat(32),
  };
}
