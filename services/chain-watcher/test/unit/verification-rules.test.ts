import { expect } from 'chai';
import type { PaymentCreatedData } from '@stablepay/contracts';
import { expectedUnitsOf } from '../../src/verification/track-payment.js';
import { AbiCoder, getAddress } from 'ethers';
import { TRANSFER_TOPIC, addressTopic, decodeTransfer, type TokenTransfer } from '../../src/chain/erc20.js';
import {
  checkSessionTime,
  confirmationsOf,
  evaluateTransfers,
  nextCheckDelay,
  type TransferExpectation,
} from '../../src/verification/rules.js';

const addr = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`);
const USDC = addr(0xa1);
const EURC = addr(0xe1);
const LOOKALIKE = addr(0xbad);
const PAYER = addr(1);
const WALLET = addr(2);
const OTHER = addr(3);

const transfer = (over: Partial<TokenTransfer> = {}): TokenTransfer => ({
  token: USDC,
  from: PAYER,
  to: WALLET,
  value: 10_000_000n,
  logIndex: 0,
  ...over,
});

const expectation: TransferExpectation = {
  token: 'USDC',
  tokenAddress: USDC,
  knownTokenAt: (a) => (a === USDC ? 'USDC' : a === EURC ? 'EURC' : undefined),
  fromAddress: PAYER.toLowerCase(),
  wallet: WALLET,
  expectedUnits: 10_000_000n,
};

const reasonOf = (transfers: TokenTransfer[], over: Partial<TransferExpectation> = {}) => {
  const r = evaluateTransfers(transfers, { ...expectation, ...over });
  return r.kind === 'rejected' ? r.reason : 'paid';
};

describe('verification rules', () => {
  it('accepts the exact amount, sums several transfers and keeps an overpayment', () => {
    expect(evaluateTransfers([transfer()], expectation)).to.deep.equal({
      kind: 'paid',
      receivedUnits: 10_000_000n,
    });
    const split = [transfer({ value: 4_000_000n }), transfer({ value: 6_500_000n, logIndex: 1 })];
    expect(evaluateTransfers(split, expectation)).to.deep.equal({ kind: 'paid', receivedUnits: 10_500_000n });
  });

  it('tells wrong token, sender, recipient and underpayment apart', () => {
    expect(reasonOf([])).to.equal('wrong_token');
    expect(reasonOf([transfer({ token: EURC })])).to.equal('wrong_token');
    expect(reasonOf([transfer({ token: LOOKALIKE })])).to.equal('wrong_token');
    expect(reasonOf([transfer({ from: OTHER })])).to.equal('wrong_sender');
    expect(reasonOf([transfer({ to: OTHER })])).to.equal('wrong_recipient');
    const under = evaluateTransfers([transfer({ value: 9_999_999n })], expectation);
    expect(under).to.deep.include({ kind: 'rejected', reason: 'underpaid', receivedUnits: 9_999_999n });
    // Only transfers from the payer to the wallet count towards the amount.
    expect(
      reasonOf([transfer({ value: 5_000_000n }), transfer({ from: OTHER, value: 5_000_000n })]),
    ).to.equal('underpaid');
  });

  it('names the token that was sent instead', () => {
    const r = evaluateTransfers([transfer({ token: EURC })], expectation);
    expect(r.kind === 'rejected' && r.detail).to.equal('the transaction moves EURC, not USDC');
  });

  it('refuses transactions mined before the session, at second precision', () => {
    const session = new Date('2025-01-01T12:00:00.700Z');
    expect(checkSessionTime(new Date('2025-01-01T12:00:00.000Z'), session)).to.equal(undefined);
    expect(checkSessionTime(new Date('2025-01-01T11:59:59.000Z'), session)?.reason).to.equal(
      'session_expired_before_tx',
    );
    expect(checkSessionTime(new Date('2000-01-01T00:00:00Z'), null)).to.equal(undefined);
  });

  it('counts the including block as the first confirmation', () => {
    expect(confirmationsOf(100, 100)).to.equal(1);
    expect(confirmationsOf(102, 100)).to.equal(3);
    expect(confirmationsOf(99, 100)).to.equal(0);
  });

  it('backs off exponentially up to the cap, never past the not-found deadline', () => {
    const at = (step: number, extra = {}) =>
      nextCheckDelay({ why: 'rpc', backoffStep: step, pollMs: 100, maxBackoffMs: 1_000, ...extra });
    expect([0, 1, 2, 3, 4, 10].map((s) => at(s).delayMs)).to.deep.equal([100, 200, 400, 800, 1_000, 1_000]);
    expect(at(3).backoffStep).to.equal(4);
    expect(at(5, { why: 'not_found', msUntilNotFound: 250 }).delayMs).to.equal(250);
    expect(at(5, { why: 'confirmations', blockTimeMs: 2_000 })).to.deep.equal({
      delayMs: 1_000,
      backoffStep: 0,
    });
    expect(at(5, { why: 'reorg' })).to.deep.equal({ delayMs: 100, backoffStep: 0 });
  });

  it('decodes ERC-20 Transfer logs only', () => {
    const data = AbiCoder.defaultAbiCoder().encode(['uint256'], [1_234_567n]);
    const topics = [TRANSFER_TOPIC, addressTopic(PAYER), addressTopic(WALLET)];
    expect(decodeTransfer({ address: USDC.toLowerCase(), topics, data, index: 4 })).to.deep.equal({
      token: USDC,
      from: PAYER,
      to: WALLET,
      value: 1_234_567n,
      logIndex: 4,
    });
    expect(decodeTransfer({ address: USDC, topics: [...topics, addressTopic(OTHER)], data: '0x' })).to.equal(
      undefined,
    );
    expect(
      decodeTransfer({ address: USDC, topics: [`0x${'00'.repeat(32)}`, ...topics.slice(1)], data }),
    ).to.equal(undefined);
    expect(decodeTransfer({ address: USDC, topics, data, removed: true })).to.equal(undefined);
  });

  it('checksums repeated addresses alike, and refuses a wrong checksum every time', () => {
    const data = AbiCoder.defaultAbiCoder().encode(['uint256'], [1n]);
    const log = {
      address: USDC.toLowerCase(),
      topics: [TRANSFER_TOPIC, addressTopic(PAYER), addressTopic(WALLET)],
      data,
    };
    expect(decodeTransfer(log)).to.deep.equal(decodeTransfer({ ...log }));
    // A valid checksum with the case of one letter turned: the same address, wrongly checksummed.
    const token = getAddress(`0x${'ab'.repeat(20)}`);
    const at = token.search(/[a-fA-F]/);
    const turned =
      token[at] === token[at]!.toLowerCase() ? token[at]!.toUpperCase() : token[at]!.toLowerCase();
    const wrong = `${token.slice(0, at)}${turned}${token.slice(at + 1)}`;
    expect(decodeTransfer({ ...log, address: token })?.token).to.equal(token);
    expect(() => decodeTransfer({ ...log, address: wrong })).to.throw();
    expect(() => decodeTransfer({ ...log, address: wrong })).to.throw();
  });
});

describe('the least a payment must receive', () => {
  const created = (amount: string, expectedAmount: string | null): PaymentCreatedData => ({
    paymentId: '00000000-0000-4000-8000-000000000001',
    merchantId: '00000000-0000-4000-8000-000000000002',
    txHash: `0x${'ab'.repeat(32)}`,
    amount,
    expectedAmount,
    currency: 'USDC',
    chainId: 8453,
    sourceChain: 'BASE',
    fromAddress: `0x${'11'.repeat(20)}`,
    toAddress: `0x${'22'.repeat(20)}`,
    isCrossChain: false,
    bridgeKit: null,
    feeQuote: null,
    destinationChainId: null,
    sessionId: null,
    sessionCreatedAt: null,
    createdAt: new Date().toISOString(),
  });

  it('is the amount when the reporter names a smaller expectedAmount', () => {
    expect(expectedUnitsOf(created('5', '0.02'))).to.equal(5_000_000n);
  });

  it('is the expectedAmount when that is more (a QR-tagged session amount)', () => {
    expect(expectedUnitsOf(created('5', '5.001234'))).to.equal(5_001_234n);
  });

  it('is the amount when there is no expectedAmount', () => {
    expect(expectedUnitsOf(created('12.5', null))).to.equal(12_500_000n);
  });
});
