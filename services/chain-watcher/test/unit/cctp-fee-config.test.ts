import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { devnetRegistry } from '@stablepay/contracts';
import { ConfigError } from '@stablepay/platform';
import { fixedNativePrices } from '../../src/cctp/native-prices.js';
import { loadChainWatcherConfig } from '../../src/index.js';

const base = { INTERNAL_TOKEN_SECRET: 'x'.repeat(32), WALLET_KEK: randomBytes(32).toString('hex') };

const problems = (env: Record<string, string>): string => {
  try {
    loadChainWatcherConfig({ ...base, ...env });
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return (err as ConfigError).problems.join('\n');
  }
  throw new Error('expected a configuration error');
};

describe('chain-watcher configuration of fee-quote inputs', () => {
  it('defaults to 265,000 gas for every chain and the built-in coin prices', async () => {
    const c = loadChainWatcherConfig(base);
    expect(c.CCTP_FEE_GAS_UNITS).to.equal(265_000);
    expect(c.CCTP_FEE_GAS_UNITS_BY_CHAIN).to.equal(undefined);
    expect(c.NATIVE_TOKEN_USD_PRICES).to.equal(undefined);
    const prices = fixedNativePrices(c.NATIVE_TOKEN_USD_PRICES);
    const [eth, , matic] = devnetRegistry.chains;
    expect(await prices.nativePrice(eth!)).to.deep.equal({
      symbol: 'ETH',
      decimals: 18,
      usdPrice: '3000',
      source: 'fixed',
    });
    expect(await prices.nativePrice(matic!)).to.include({ symbol: 'POL', usdPrice: '0.25' });
  });

  it('reads per-chain gas units and per-coin prices, configured prices winning over the defaults', async () => {
    const c = loadChainWatcherConfig({
      ...base,
      CCTP_FEE_GAS_UNITS: '300000',
      CCTP_FEE_GAS_UNITS_BY_CHAIN: '{"ARB":450000,"BASE":250000}',
      NATIVE_TOKEN_USD_PRICES: '{"POL":"0.212345678901234567","ETH":"3150.25"}',
    });
    expect(c.CCTP_FEE_GAS_UNITS).to.equal(300_000);
    expect(c.CCTP_FEE_GAS_UNITS_BY_CHAIN).to.deep.equal({ ARB: 450_000, BASE: 250_000 });
    const prices = fixedNativePrices(c.NATIVE_TOKEN_USD_PRICES);
    const [eth, , matic] = devnetRegistry.chains;
    expect(await prices.nativePrice(eth!)).to.include({ usdPrice: '3150.25' });
    expect(await prices.nativePrice(matic!)).to.include({ usdPrice: '0.212345678901234567' });
  });

  it('names the variable of every bad value', () => {
    for (const [name, value] of [
      ['CCTP_FEE_GAS_UNITS', '20000'],
      ['CCTP_FEE_GAS_UNITS', 'lots'],
      ['CCTP_FEE_GAS_UNITS_BY_CHAIN', 'nope'],
      ['CCTP_FEE_GAS_UNITS_BY_CHAIN', '{"DOGE":300000}'],
      ['CCTP_FEE_GAS_UNITS_BY_CHAIN', '{"BASE":"300000"}'],
      ['NATIVE_TOKEN_USD_PRICES', '{"ETH":3000}'],
      ['NATIVE_TOKEN_USD_PRICES', '{"ETH":"0"}'],
      ['NATIVE_TOKEN_USD_PRICES', '{"ETH":"3e3"}'],
      ['NATIVE_TOKEN_USD_PRICES', '{"MATIC":"0.25"}'],
      ['NATIVE_TOKEN_USD_PRICES', '{"ETH":"1.0000000000000000001"}'],
    ] as const) {
      expect(problems({ [name]: value }), `${name}=${value}`).to.include(name);
    }
  });
});
