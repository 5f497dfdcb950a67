import { chainByName, type BlockchainName, type CctpFeeInputs } from '@stablepay/contracts';
import { AppError, fieldDetail } from '@stablepay/platform';
import { RpcUnavailableError } from '../chain/rpc-errors.js';
import type { WatcherContext } from '../context/watcher-context.js';
import type { NativePriceSource } from './native-prices.js';

/** How a destination chain's mint and merchant transfer are priced. */
export interface FeeInputSettings {
  /** gas units of the mint plus the transfer, unless the chain has its own figure */
  gasUnits: number;
  gasUnitsByChain: Partial<Record<BlockchainName, number>>;
  prices: NativePriceSource;
}

/**
 * What a cross-chain fee quote for `destination` is computed from, read now: the chain's gas price,
 * the configured gas of a mint plus a USDC transfer, and the USD price of the chain's gas coin.
 */
export const cctpFeeInputs = async (
  ctx: WatcherContext,
  settings: FeeInputSettings,
  destination: BlockchainName,
): Promise<CctpFeeInputs> => {
  const chain = chainByName(ctx.registry, destination);
  const rpc = chain && ctx.chains.get(chain.chainId);
  if (!chain || !rpc) {
    throw new AppError('validation', `Chain ${destination} is not served`, [
      fieldDetail('destinationChain', `This deployment does not serve ${destination}`, 'unknown_chain'),
    ]);
  }
  let gasPriceWei: bigint;
  try {
    gasPriceWei = await rpc.call('eth_gasPrice', async (p) => BigInt(await p.send('eth_gasPrice', [])));
  } catch (err) {
    if (err instanceof RpcUnavailableError) {
      throw new AppError(
        'unavailable',
        `The ${destination} network cannot be reached; try again shortly`,
        [],
        5,
      );
    }
    throw err;
  }
  const native = await settings.prices.nativePrice(chain);
  return {
    blockchain: chain.name,
    chainId: chain.chainId,
    gasPriceWei: gasPriceWei.toString(),
    gasUnits: String(settings.gasUnitsByChain[chain.name] ?? settings.gasUnits),
    nativeToken: native,
  };
};
