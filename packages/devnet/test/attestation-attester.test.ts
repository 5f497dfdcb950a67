import { expect } from 'chai';
import {
  ZeroHash,
  dataLength,
  dataSlice,
  hashMessage,
  hexlify,
  keccak256,
  randomBytes,
  recoverAddress,
} from 'ethers';
import { devnetAccount } from '../src/accounts.js';
import { MessageAttester, ReattestError } from '../src/attestation/attester.js';
import {
  decideFees,
  deriveNonce,
  encodeForwardHookData,
  parseForwardHook,
} from '../src/attestation/index.js';
import { resolveOptions } from '../src/attestation/options.js';
import type { ObservedMessage } from '../src/attestation/store.js';
import { recoverAttesters } from '../src/cctp/attesters.js';
import {
  addressToBytes32,
  decodeBurnMessageV2,
  decodeMessageV2,
  encodeBurnMessageV2,
  encodeMessageV2,
  type BurnMessageV2,
} from '@stablepay/platform/cctp/message-v2';

const attesterKeys = [2000, 2001, 2002].map((index) => devnetAccount(index).privateKey);
const attesterAddresses = [2000, 2001, 2002].map((index) => devnetAccount(index).address);
const options = resolveOptions({
  chains: [0, 6].map((domain) => ({
    name: `D${domain}`,
    chainId: 31_000 + domain,
    cctpDomain: domain,
    rpcUrl: 'http://127.0.0.1:1',
    messageTransmitter: '0x81D40F21F12A8F0E3252Bccb954D722d4c464B64',
    tokenMessenger: '0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d',
  })),
  attesterKeys,
  signatureThreshold: 2,
  confirmations: { fast: 2, standard: 5 },
  fastExpirationBlocks: 100,
});
const attester = new MessageAttester(options, () => ({ ok: true }));

const body = (overrides: Partial<BurnMessageV2> = {}): BurnMessageV2 => ({
  version: 1,
  burnToken: addressToBytes32('0x5FbDB2315678afecb367f032d93F642f64180aa3'),
  mintRecipient: addressToBytes32('0x70997970C51812dc3A010C7d01b50e0d17dc79C8'),
  amount: 100_000_000n,
  messageSender: addressToBytes32('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'),
  maxFee: 20_000n,
  feeExecuted: 0n,
  expirationBlock: 0n,
  hookData: '0x',
  ...overrides,
});

/** A burn as the source chain emits it and as the service records it once seen at block 10. */
const observedBurn = (minFinalityThreshold: number, burn = body()): ObservedMessage => {
  const transactionHash = hexlify(randomBytes(32));
  const emitted = encodeMessageV2({
    version: 1,
    sourceDomain: 0,
    destinationDomain: 6,
    nonce: ZeroHash,
    sender: addressToBytes32('0x1111111111111111111111111111111111111111'),
    recipient: addressToBytes32('0x2222222222222222222222222222222222222222'),
    destinationCaller: ZeroHash,
    minFinalityThreshold,
    finalityThresholdExecuted: 0,
    messageBody: encodeBurnMessageV2(burn),
  });
  const decision = decideFees({
    minFinalityThreshold,
    amount: burn.amount,
    maxFee: burn.maxFee,
    fastFee: 10_000n,
    standardFee: 0n,
    forward: { kind: 'none' },
  });
  return {
    sourceChain: 'D0',
    sourceDomain: 0,
    destinationDomain: 6,
    transactionHash,
    logIndex: 3,
    blockNumber: 10,
    emitted,
    nonce: deriveNonce(0, transactionHash, 3),
    burn,
    decision,
    requiredConfirmations: decision.finalityThresholdExecuted === 1000 ? 2 : 5,
    attested: undefined,
    forward: undefined,
  };
};

describe('attestation service: the attester', () => {
  it('waits for the confirmations of the finality it executes, the burn’s own block counting as one', () => {
    const fast = observedBurn(1000);
    expect(attester.isDue(fast, 10)).to.equal(false);
    expect(attester.isDue(fast, 11)).to.equal(true);
    const standard = observedBurn(2000);
    expect(attester.isDue(standard, 13)).to.equal(false);
    expect(attester.isDue(standard, 14)).to.equal(true);
  });

  it('fills in nonce, finality, fee and a fast expiry, and signs with the threshold of attesters in address order', () => {
    const record = observedBurn(1000);
    const attested = attester.attest(record, 500);
    const header = decodeMessageV2(attested.message);
    expect(header.nonce).to.equal(record.nonce);
    expect(header.finalityThresholdExecuted).to.equal(1000);
    expect(header.minFinalityThreshold).to.equal(1000);
    expect(decodeBurnMessageV2(header.messageBody)).to.deep.equal(
      body({ feeExecuted: 10_000n, expirationBlock: 600n }),
    );
    expect(attested.expirationBlock).to.equal(600n);
    // Everything but the filled-in fields is the emitted bytes.
    expect(dataSlice(attested.message, 44, 140)).to.equal(dataSlice(record.emitted, 44, 140));

    expect(dataLength(attested.attestation)).to.equal(2 * 65);
    const signers = recoverAttesters(attested.message, attested.attestation);
    const expected = attesterAddresses.slice(0, 2).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    expect(signers).to.deep.equal(expected);
    for (const offset of [0, 65]) {
      expect([27, 28]).to.include(Number(dataSlice(attested.attestation, offset + 64, offset + 65)));
    }
    // The raw keccak256 is signed: the EIP-191 digest recovers someone else.
    const first = dataSlice(attested.attestation, 0, 65);
    expect(recoverAddress(keccak256(attested.message), first)).to.equal(signers[0]);
    expect(recoverAddress(hashMessage(attested.message), first)).to.not.equal(signers[0]);
  });

  it('gives a standard message expirationBlock 0 and no fast fee', () => {
    const attested = attester.attest(observedBurn(2000), 500);
    const burn = decodeBurnMessageV2(decodeMessageV2(attested.message).messageBody);
    expect(decodeMessageV2(attested.message).finalityThresholdExecuted).to.equal(2000);
    expect(burn.expirationBlock).to.equal(0n);
    expect(burn.feeExecuted).to.equal(0n);
  });

  it('downgrades a fast burn whose maxFee is short to standard, and says why', () => {
    const record = observedBurn(1000, body({ maxFee: 9_999n }));
    expect(record.decision).to.deep.include({
      finalityThresholdExecuted: 2000,
      delayReason: 'insufficient_fee',
    });
    expect(record.requiredConfirmations).to.equal(5);
    const burn = decodeBurnMessageV2(decodeMessageV2(attester.attest(record, 1).message).messageBody);
    expect(burn.expirationBlock).to.equal(0n);
  });

  it('re-attests a fast message with a fresh expiry before finality and as standard after it, the fee kept', () => {
    const record = observedBurn(1000);
    expect(() => attester.reattest(record, 11, 500)).to.throw(ReattestError, /not attested/);
    record.attested = attester.attest(record, 500);

    const fresh = attester.reattest(record, 12, 900);
    expect(fresh.finalityThresholdExecuted).to.equal(1000);
    expect(fresh.expirationBlock).to.equal(1000n);
    expect(fresh.attestation).to.not.equal(record.attested.attestation);

    const final = attester.reattest(record, 14, 900);
    const header = decodeMessageV2(final.message);
    expect(header.finalityThresholdExecuted).to.equal(2000);
    expect(header.nonce).to.equal(record.nonce);
    expect(decodeBurnMessageV2(header.messageBody)).to.deep.include({
      feeExecuted: 10_000n,
      expirationBlock: 0n,
    });

    record.attested = final;
    expect(() => attester.reattest(record, 20, 900)).to.throw(ReattestError, /pre-finality/);
  });
});

describe('attestation service: nonces and the forwarding hook', () => {
  it('derives a nonce per emitted message, the same again after a restart, never zero', () => {
    const tx = hexlify(randomBytes(32));
    expect(deriveNonce(0, tx, 1)).to.equal(deriveNonce(0, tx, 1));
    expect(deriveNonce(0, tx, 1)).to.not.equal(deriveNonce(0, tx, 2));
    expect(deriveNonce(0, tx, 1)).to.not.equal(deriveNonce(6, tx, 1));
    expect(deriveNonce(0, tx, 1)).to.not.equal(ZeroHash);
  });

  it('writes Circle’s static hook data: the magic padded to 24 bytes, version 0, length 0', () => {
    expect(encodeForwardHookData()).to.equal(`0x636374702d666f7277617264${'0'.repeat(24)}${'0'.repeat(16)}`);
    expect(parseForwardHook(encodeForwardHookData())).to.deep.equal({ valid: true, version: 0 });
    expect(parseForwardHook(encodeForwardHookData('0xabcdef'))).to.deep.equal({ valid: true, version: 0 });
  });

  it('tells hook data that does not ask for forwarding from a malformed request', () => {
    expect(parseForwardHook('0x')).to.equal(undefined);
    expect(parseForwardHook(hexlify(randomBytes(40)))).to.equal(undefined);
    const magic = dataSlice(encodeForwardHookData(), 0, 24);
    expect(parseForwardHook(`${magic}0000`)).to.deep.equal({
      valid: false,
      reason: 'forwarding hook data is truncated',
    });
    expect(parseForwardHook(`${magic}0000000100000000`)).to.deep.include({ valid: false });
    expect(parseForwardHook(`${magic}0000000000000010`)).to.deep.equal({
      valid: false,
      reason: 'forwarding hook data is shorter than its declared length',
    });
  });
});
