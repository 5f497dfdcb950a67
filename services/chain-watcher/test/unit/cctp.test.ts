import { expect } from 'chai';
import { concat, getAddress, keccak256, toBeHex, zeroPadValue } from 'ethers';
import type { ChainConfig } from '@stablepay/contracts';
import {
  CCTP_TOPICS,
  cctpEvents,
  decodeCctpMessage,
  decodeDepositForBurn,
  type DepositForBurn,
} from '../../src/chain/cctp.js';
import { burnProblem, matchBurn } from '../../src/cctp/burn-rules.js';

const addr = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`);
const word = (a: string) => zeroPadValue(a, 32).toLowerCase();
const u32 = (n: number) => toBeHex(n, 4);
const u256 = (n: bigint) => toBeHex(n, 32);

const ETH_USDC = addr(0xa1);
const BASE_USDC = addr(0xb1);
const MESSENGER = addr(0xc1);
const PAYER = addr(1);
const WALLET = addr(2);

const chain = (name: 'ETH' | 'BASE', chainId: number, cctpDomain: number, usdc: string): ChainConfig =>
  ({
    name,
    chainId,
    cctpDomain,
    rpcUrls: ['http://127.0.0.1:1'],
    confirmations: 1,
    tokens: { USDC: usdc },
    cctp: { tokenMessenger: MESSENGER, messageTransmitter: addr(0xd1) },
  }) as ChainConfig;
const ETH = chain('ETH', 31001, 0, ETH_USDC);
const BASE = chain('BASE', 31002, 6, BASE_USDC);

const burn = (over: Partial<DepositForBurn> = {}): DepositForBurn => ({
  emitter: MESSENGER,
  burnToken: ETH_USDC,
  amount: 25_000_000n,
  depositor: PAYER,
  mintRecipient: word(WALLET),
  mintRecipientAddress: WALLET,
  destinationDomain: 6,
  destinationCaller: word(addr(0)),
  maxFee: 1_000n,
  minFinalityThreshold: 1000,
  hookData: '0x',
  logIndex: 4,
  ...over,
});

const want = {
  source: ETH,
  destination: BASE,
  depositor: PAYER,
  mintRecipient: WALLET,
  minUnits: 25_000_000n,
};

describe('CCTP burns and messages', () => {
  it('decodes a DepositForBurn log with the mint recipient as an address', () => {
    const log = cctpEvents.encodeEventLog(cctpEvents.getEvent('DepositForBurn')!, [
      ETH_USDC,
      25_000_000n,
      PAYER,
      word(WALLET),
      6,
      word(addr(0xee)),
      word(addr(0)),
      1_000n,
      1000,
      '0x',
    ]);
    expect(log.topics[0]).to.equal(CCTP_TOPICS.depositForBurn);
    const decoded = decodeDepositForBurn({
      address: MESSENGER,
      topics: log.topics,
      data: log.data,
      index: 4,
    });
    expect(decoded).to.deep.include({
      burnToken: ETH_USDC,
      amount: 25_000_000n,
      depositor: PAYER,
      mintRecipientAddress: WALLET,
      destinationDomain: 6,
      minFinalityThreshold: 1000,
      logIndex: 4,
    });
    expect(
      decodeDepositForBurn({ address: MESSENGER, topics: [CCTP_TOPICS.messageSent], data: '0x' }),
    ).to.equal(undefined);
  });

  it('reads a MessageV2 with its burn body at the offsets of the reference layout', () => {
    const nonce = keccak256('0x01');
    const body = concat([
      u32(1),
      word(ETH_USDC),
      word(WALLET),
      u256(25_000_000n),
      word(PAYER),
      u256(1_000n),
      u256(700n),
      u256(123n),
      '0xabcd',
    ]);
    const message = concat([
      u32(1),
      u32(0),
      u32(6),
      nonce,
      word(MESSENGER),
      word(MESSENGER),
      word(addr(0)),
      u32(1000),
      u32(1000),
      body,
    ]);
    const m = decodeCctpMessage(message);
    expect(m).to.deep.include({
      version: 1,
      sourceDomain: 0,
      destinationDomain: 6,
      nonce,
      minFinalityThreshold: 1000,
    });
    expect(m.body).to.deep.include({
      version: 1,
      mintRecipient: word(WALLET),
      amount: 25_000_000n,
      maxFee: 1_000n,
      feeExecuted: 700n,
      expirationBlock: 123n,
      hookData: '0xabcd',
    });
    expect(m.hash).to.equal(keccak256(message));
    expect(() => decodeCctpMessage('0x0102')).to.throw(/at least 148 bytes, not 2/);
  });

  it('names the first rule a burn breaks, in the order a customer would fix them', () => {
    expect(burnProblem(burn(), want)).to.equal(undefined);
    const reasonOf = (b: DepositForBurn) => (burnProblem(b, want) as { reason: string }).reason;
    expect(reasonOf(burn({ burnToken: addr(0xbad) }))).to.equal('wrong_token');
    expect(reasonOf(burn({ depositor: addr(9) }))).to.equal('wrong_sender');
    expect(reasonOf(burn({ destinationDomain: 7 }))).to.equal('wrong_domain');
    expect(reasonOf(burn({ mintRecipientAddress: addr(9), mintRecipient: word(addr(9)) }))).to.equal(
      'wrong_recipient',
    );
    expect(
      reasonOf(burn({ mintRecipientAddress: undefined, mintRecipient: `0x${'ff'.repeat(32)}` })),
    ).to.equal('wrong_recipient');
    expect(reasonOf(burn({ amount: 24_999_999n }))).to.equal('underpaid');
    expect(reasonOf(burn({ burnToken: addr(0xbad), amount: 1n }))).to.equal('wrong_token');
  });

  it('takes the burn that pays among several, and calls a transaction without one not a burn', () => {
    const paying = burn({ logIndex: 9 });
    expect(matchBurn([burn({ amount: 1n }), paying], want)).to.deep.equal({ burn: paying });
    expect((matchBurn([burn({ amount: 1n })], want) as { reason: string }).reason).to.equal('underpaid');
    expect((matchBurn([], want) as { reason: string }).reason).to.equal('not_a_burn');
  });
});
