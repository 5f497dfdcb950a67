import { ok, type HandlerOf } from '@stablepay/platform';
import type { ChainWatcherConfig } from '../config.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { cctpFeeInputs, type FeeInputSettings } from './fee-inputs.js';
import { fixedNativePrices, type NativePriceSource } from './native-prices.js';

/** GET /internal/cctp/fee-inputs: what the payments service prices a cross-chain fee quote from. */
export const cctpFeeInputRoutes = (
  ctx: WatcherContext,
  config: ChainWatcherConfig,
  prices: NativePriceSource = fixedNativePrices(config.NATIVE_TOKEN_USD_PRICES),
) => {
  if (config.registry.network !== 'devnet' && !config.NATIVE_TOKEN_USD_PRICES) {
    ctx.logger.warn('fee quotes price gas coins at built-in figures: set NATIVE_TOKEN_USD_PRICES');
  }
  const settings: FeeInputSettings = {
    gasUnits: config.CCTP_FEE_GAS_UNITS,
    gasUnitsByChain: config.CCTP_FEE_GAS_UNITS_BY_CHAIN ?? {},
    prices,
  };
  const getCctpFeeInputs: HandlerOf<'getCctpFeeInputs'> = async ({ query, res }) =>
    ok(res, await cctpFeeInputs(ctx, settings, query.destinationChain));
  return { getCctpFeeInputs };
};
