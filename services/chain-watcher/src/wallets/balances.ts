import { AppError } from '@stablepay/platform';
import { CURRENCIES, baseUnitsToDecimal, chainById, type WalletBalance } from '@stablepay/contracts';
import { balanceOf } from '../chain/erc20.js';
import { RpcUnavailableError } from '../chain/rpc-errors.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { requirePrimaryWallet } from './merchant-wallet.js';

/**
 * On-chain balances of the merchant's primary wallet, read now (never cached: a merchant checks the
 * balance right after a payment or a withdrawal). Tokens the chain does not have are left out.
 */
export const walletBalance = async (ctx: WatcherContext, merchantId: string): Promise<WalletBalance> => {
  const wallet = await requirePrimaryWallet(ctx, merchantId);
  const chain = chainById(ctx.registry, wallet.chainId);
  const rpc = ctx.chains.get(wallet.chainId);
  if (!chain || !rpc)
    throw new AppError('unavailable', `Chain ${wallet.blockchain} is not configured`, [], 30);
  const tokens = CURRENCIES.filter((token) => chain.tokens[token] !== undefined);
  try {
    const amounts = await Promise.all(
      tokens.map((token) => balanceOf(rpc, chain.tokens[token]!, wallet.address)),
    );
    return {
      wallet_id: wallet.id,
      address: wallet.address,
      blockchain: wallet.blockchain,
      balances: tokens.map((token, i) => ({ token, amount: baseUnitsToDecimal(amounts[i]!) })),
    };
  } catch (err) {
    if (err instanceof RpcUnavailableError) {
      throw new AppError(
        'unavailable',
        `The ${wallet.blockchain} network cannot be reached; try again shortly`,
        [],
        5,
      );
    }
    throw err;
  }
};
