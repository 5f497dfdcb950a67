import type { MerchantWallet } from '@stablepay/contracts';
import { notFound } from '@stablepay/platform';
import type { WalletRecord } from './wallets-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';

/** The merchant's primary wallet; a 404 when this service holds none for the merchant. */
export const requirePrimaryWallet = async (
  ctx: WatcherContext,
  merchantId: string,
): Promise<WalletRecord> => {
  const wallet = await ctx.wallets.primary(merchantId);
  if (!wallet) throw notFound('Wallet');
  return wallet;
};

/** Where a merchant's funds are held, as other services see it. */
export const merchantWallet = async (ctx: WatcherContext, merchantId: string): Promise<MerchantWallet> => {
  const { id, address, blockchain, chainId } = await requirePrimaryWallet(ctx, merchantId);
  return { id, address, blockchain, chainId };
};
