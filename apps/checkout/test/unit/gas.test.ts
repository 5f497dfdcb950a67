import { expect } from 'chai';
import type { PublicChain } from '@stablepay/contracts';
import {
  GAS_PRICE_MARGIN,
  defaultFunding,
  gasCostWei,
  gasShortfall,
  type GasNeed,
} from '../../src/pay/gas.js';
import { quoteUsable } from '../../src/pay/gasless.js';

const chain = (name: string, chainId: number) =>
  ({
    name,
    chainId,
    cctpDomain: 0,
    confirmations: 1,
    rpcUrls: [],
    tokens: {},
    cctp: null,
  }) as unknown as PublicChain;
const base = chain('BASE', 8453);
const eth = chain('ETH', 1);
const gwei = 1_000_000_000n;

const need = (c: PublicChain, nativeWei: bigint, units = 60_000n, priceWei = 2n * gwei): GasNeed => ({
  chain: c,
  units,
  priceWei,
  nativeWei,
});

describe('checkout gas decision', () => {
  it('costs the transfer at twice the gas price now, as wallets reserve for EIP-1559', () => {
    expect(GAS_PRICE_MARGIN).to.equal(2n);
    expect(gasCostWei({ units: 60_000n, priceWei: 2n * gwei })).to.equal(240_000n * gwei);
  });

  it('a wallet with no native gas, or less than the cost with the margin, is short', () => {
    expect(gasShortfall([need(base, 0n)])?.chain.name).to.equal('BASE');
    expect(gasShortfall([need(base, 240_000n * gwei - 1n)])?.chain.name).to.equal('BASE');
    // Enough for one transaction at today's price, but not with the margin: still short.
    expect(gasShortfall([need(base, 120_000n * gwei)])?.chain.name).to.equal('BASE');
  });

  it('a wallet holding the cost with the margin is not short', () => {
    expect(gasShortfall([need(base, 240_000n * gwei)])).to.equal(undefined);
    expect(gasShortfall([need(base, 10n ** 18n)])).to.equal(undefined);
  });

  it('cross-chain, the first chain without gas is named (the burn chain, or the mint chain)', () => {
    expect(gasShortfall([need(eth, 10n ** 18n), need(base, 0n)])?.chain.name).to.equal('BASE');
    expect(gasShortfall([need(eth, 0n), need(base, 10n ** 18n)])?.chain.name).to.equal('ETH');
    expect(gasShortfall([need(eth, 10n ** 18n), need(base, 10n ** 18n)])).to.equal(undefined);
  });

  it('offers the signature by default only to a wallet with the token and short of gas', () => {
    const usdc = 50_000_000n;
    expect(defaultFunding(undefined, usdc), 'gas unknown').to.equal('transfer');
    expect(defaultFunding({ needs: [need(base, 10n ** 18n)] }, usdc), 'gas enough').to.equal('transfer');
    const short = need(base, 0n);
    expect(defaultFunding({ needs: [short], short }, usdc), 'no gas').to.equal('authorization');
    // Neither gas nor token: nothing to sign for; the balance is what the customer needs to hear.
    expect(defaultFunding({ needs: [short], short }, 0n), 'no token').to.equal('transfer');
  });

  it('signs a quote only while it has time left for the wallet prompt', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(quoteUsable({ expiresAt: '2026-11-27T10:05:00.000Z' }, now)).to.equal(true);
    expect(quoteUsable({ expiresAt: '2026-11-27T10:00:10.000Z' }, now)).to.equal(false);
    expect(quoteUsable({ expiresAt: '2026-11-27T09:59:00.000Z' }, now)).to.equal(false);
  });
});
