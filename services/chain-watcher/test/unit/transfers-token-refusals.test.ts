import { expect } from 'chai';
import { AbiCoder, Interface, Wallet, concat, id } from 'ethers';
import { tokenRefusal } from '../../src/chain/fiat-token.js';
import { revertOf } from '../../src/chain/rpc-errors.js';
import { blacklistedReason, insufficientFundsReason } from '../../src/transfers/rules.js';

/** Revert data of `require(false, message)`. */
const errorString = (message: string): string =>
  concat([id('Error(string)').slice(0, 10), AbiCoder.defaultAbiCoder().encode(['string'], [message])]);

const revert = (fields: Record<string, unknown>) => ({ code: 'CALL_EXCEPTION', ...fields });

describe('outgoing transfers: what the token says', () => {
  it('decodes a revert from its data: Error(string), Panic, and the custom errors of OpenZeppelin 5 tokens', () => {
    expect(revertOf(revert({ data: errorString('Pausable: paused'), reason: null }))).to.deep.equal({
      message: 'Pausable: paused',
      data: errorString('Pausable: paused'),
    });
    const panic = concat([
      id('Panic(uint256)').slice(0, 10),
      AbiCoder.defaultAbiCoder().encode(['uint256'], [0x11]),
    ]);
    expect(revertOf(revert({ data: panic }))?.message).to.equal('panic 0x11');
    const oz = new Interface([
      'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
    ]);
    const short = oz.encodeErrorResult('ERC20InsufficientBalance', [Wallet.createRandom().address, 1n, 2n]);
    expect(revertOf(revert({ data: short }))?.message).to.equal('ERC20InsufficientBalance');
    expect(revertOf(revert({ data: '0xdeadbeef' }))?.message).to.equal('custom error 0xdeadbeef');
  });

  it('falls back on the reason ethers found, then on the node\'s "execution reverted: ..." text', () => {
    expect(
      revertOf(revert({ data: '0x', reason: 'Blacklistable: account is blacklisted' }))?.message,
    ).to.equal('Blacklistable: account is blacklisted');
    const geth = revert({
      data: null,
      info: { error: { code: 3, message: 'execution reverted: Pausable: paused' } },
    });
    expect(revertOf(geth)).to.deep.equal({ message: 'Pausable: paused', data: null });
    expect(revertOf(revert({}))?.message).to.equal('execution reverted');
  });

  it('is not a revert when the node did not answer: RPC failures stay errors', () => {
    expect(revertOf({ code: 'SERVER_ERROR', info: { responseStatus: '502' } })).to.equal(undefined);
    expect(revertOf(new Error('ECONNREFUSED'))).to.equal(undefined);
    expect(revertOf(undefined)).to.equal(undefined);
  });

  it("classifies FiatToken's strings (and their OpenZeppelin equivalents) into what a transfer does next", () => {
    const kind = (message: string) => tokenRefusal({ message, data: null }).kind;
    expect(kind('Pausable: paused')).to.equal('paused');
    expect(kind('EnforcedPause')).to.equal('paused');
    expect(kind('Blacklistable: account is blacklisted')).to.equal('blacklisted');
    expect(kind('ERC20: transfer amount exceeds balance')).to.equal('insufficient_balance');
    expect(kind('ERC20InsufficientBalance')).to.equal('insufficient_balance');
    expect(kind('FiatTokenV2: authorization is used or canceled')).to.equal('authorization_spent');
    expect(kind('FiatTokenV2: authorization is expired')).to.equal('other');
    expect(tokenRefusal({ message: 'FiatTokenV2: invalid signature', data: null })).to.deep.equal({
      kind: 'other',
      message: 'FiatTokenV2: invalid signature',
    });
  });

  it('says who is blacklisted when the token tells, and both candidates when it does not', () => {
    const wallet = '0x1111111111111111111111111111111111111111';
    const to = '0x2222222222222222222222222222222222222222';
    const tail = "on the USDC issuer's blacklist; nothing was transferred";
    const prefix = 'the USDC contract refuses this address (blacklisted):';
    expect(blacklistedReason('USDC', wallet, to, [to.toUpperCase().replace('0X', '0x')])).to.equal(
      `${prefix} the recipient ${to} is ${tail}`,
    );
    expect(blacklistedReason('USDC', wallet, to, [wallet, to])).to.equal(
      `${prefix} the merchant wallet ${wallet} and the recipient ${to} are ${tail}`,
    );
    expect(blacklistedReason('USDC', wallet, to, undefined)).to.equal(
      `${prefix} the merchant wallet ${wallet} or the recipient ${to} is ${tail}`,
    );
  });

  it('words insufficient funds before sending and once mined', () => {
    const f = { wallet: '0xW', balance: 1_500_000n, value: 2_000_000n, token: 'EURC', chain: 'BASE' };
    expect(insufficientFundsReason({ ...f, mined: false })).to.equal(
      'insufficient funds: the merchant wallet 0xW holds 1.500000 EURC on BASE, the transfer needs 2.000000 EURC',
    );
    expect(insufficientFundsReason({ ...f, mined: true })).to.equal(
      'insufficient funds: the merchant wallet 0xW held 1.500000 EURC when the transfer of 2.000000 EURC was mined',
    );
  });
});
