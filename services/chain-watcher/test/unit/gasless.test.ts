import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { ConfigError } from '@stablepay/platform';
import type { PaymentAuthorizationReceivedData } from '@stablepay/contracts';
import { loadChainWatcherConfig } from '../../src/index.js';
import { expectedUnitsOf } from '../../src/gasless/accept.js';
import { refusalOfRevert } from '../../src/gasless/submission.js';
import { utcDay } from '../../src/gasless/gas-budget-repo.js';

const base = { INTERNAL_TOKEN_SECRET: 'x'.repeat(32), WALLET_KEK: randomBytes(32).toString('hex') };

const received = (over: Partial<PaymentAuthorizationReceivedData>): PaymentAuthorizationReceivedData => ({
  paymentId: randomUUID(),
  merchantId: randomUUID(),
  chainId: 8453,
  sourceChain: 'BASE',
  currency: 'USDC',
  amount: '10.000000',
  toAddress: `0x${'1'.repeat(40)}`,
  isCrossChain: false,
  destinationChainId: null,
  authorization: {
    from: `0x${'2'.repeat(40)}`,
    to: `0x${'1'.repeat(40)}`,
    value: '10015000',
    validAfter: '0',
    validBefore: '9999999999',
    nonce: `0x${'3'.repeat(64)}`,
    signature: `0x${'4'.repeat(130)}`,
  },
  networkFee: '0.015000',
  cctpFee: '0.000000',
  feeBearer: 'customer',
  sessionId: null,
  sessionCreatedAt: null,
  createdAt: new Date().toISOString(),
  ...over,
});

describe('gasless payments: rules without a chain', () => {
  it('expects the amount plus the fees the customer bears, and only the amount when the merchant bears them', () => {
    expect(expectedUnitsOf(received({}))).to.equal(10_015_000n);
    expect(expectedUnitsOf(received({ feeBearer: 'merchant' }))).to.equal(10_000_000n);
  });

  it('tells the customer what a token revert means, in a refusal code', () => {
    expect(refusalOfRevert('FiatTokenV2: invalid signature').code).to.equal(
      'authorization_signature_invalid',
    );
    expect(refusalOfRevert('FiatTokenV2: authorization is expired').code).to.equal('authorization_expired');
    expect(refusalOfRevert('FiatTokenV2: authorization is not yet valid').code).to.equal(
      'authorization_not_yet_valid',
    );
    expect(refusalOfRevert('FiatTokenV2: authorization is used or canceled').code).to.equal(
      'authorization_nonce_used',
    );
    expect(refusalOfRevert('ERC20: transfer amount exceeds balance').code).to.equal(
      'authorization_insufficient_balance',
    );
    expect(refusalOfRevert('Blacklistable: account is blacklisted').code).to.equal(
      'authorization_refused_by_token',
    );
    expect(refusalOfRevert('Pausable: paused').code).to.equal('authorization_refused_by_token');
  });

  it('counts budgets per UTC day', () => {
    expect(utcDay(new Date('2026-11-27T23:59:59.999Z'))).to.equal('2026-11-27');
    expect(utcDay(new Date('2026-11-28T00:00:00.000Z'))).to.equal('2026-11-28');
  });

  it('reads the relay gas budget in wei, per chain, and refuses what is not a whole number of wei', () => {
    const c = loadChainWatcherConfig(base);
    expect(c.GASLESS_DAILY_GAS_BUDGET_WEI).to.equal('50000000000000000');
    expect(() => JSON.stringify(c)).to.not.throw();
    expect(c.GASLESS_RELAY_GAS_MARGIN).to.equal(5);
    const tuned = loadChainWatcherConfig({
      ...base,
      GASLESS_DAILY_GAS_BUDGET_WEI: '1000',
      GASLESS_DAILY_GAS_BUDGET_WEI_BY_CHAIN: '{"ETH":"200000000000000000"}',
    });
    expect(tuned.GASLESS_DAILY_GAS_BUDGET_WEI).to.equal('1000');
    expect(tuned.GASLESS_DAILY_GAS_BUDGET_WEI_BY_CHAIN).to.deep.equal({ ETH: '200000000000000000' });
    expect(() => loadChainWatcherConfig({ ...base, GASLESS_DAILY_GAS_BUDGET_WEI: '0.5' })).to.throw(
      ConfigError,
    );
    expect(() =>
      loadChainWatcherConfig({ ...base, GASLESS_DAILY_GAS_BUDGET_WEI_BY_CHAIN: '{"NOPE":"1"}' }),
    ).to.throw(ConfigError);
  });
});
