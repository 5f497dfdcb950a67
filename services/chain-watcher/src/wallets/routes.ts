import { ok, type HandlerOf } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { walletBalance } from './balances.js';
import { merchantWallet } from './merchant-wallet.js';

/** The merchant's own balances (GET /wallets/api/balance and its dashboard twin), and wallets as other services see them. */
export const walletRoutes = (ctx: WatcherContext) => {
  const getWalletBalance: HandlerOf<'getWalletBalance'> & HandlerOf<'getWalletBalanceDashboard'> = async ({
    merchant,
    res,
  }) => ok(res, await walletBalance(ctx, merchant.merchantId));
  const getInternalWallet: HandlerOf<'getInternalWallet'> = async ({ params, res }) =>
    ok(res, { wallet: await merchantWallet(ctx, params.merchantId) });
  // The same balances, for services deciding whether a merchant's funds cover a refund or a withdrawal.
  const getInternalWalletBalances: HandlerOf<'getInternalWalletBalances'> = async ({ params, res }) =>
    ok(res, await walletBalance(ctx, params.merchantId));
  return {
    getWalletBalance,
    getInternalWallet,
    getInternalWalletBalances,
  };
};
