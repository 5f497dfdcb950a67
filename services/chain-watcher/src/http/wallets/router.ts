import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { Uuid, type MerchantWallet } from '@stablepay/contracts';
import { merchantOf, notFound, ok, parseParams } from '@stablepay/platform';
import { walletBalance } from '../../domain/balances.js';
import type { WatcherContext } from '../../domain/context.js';
import { apiKeyOnly, serviceOnly } from '../auth.js';

/** Balances change with every block: no response may be reused, errors included. */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** GET /wallets/api/balance (key): the caller's own merchant wallet. */
const balanceRoute =
  (ctx: WatcherContext): RequestHandler =>
  async (_req, res) => {
    const { merchantId } = merchantOf(res);
    ok(res, await walletBalance(ctx, merchantId));
  };

const InternalWalletParams = z.object({ merchantId: Uuid });

/** GET /internal/wallets/:merchantId (service): where a merchant's funds are held. */
const internalWalletRoute =
  (ctx: WatcherContext): RequestHandler =>
  async (req, res) => {
    const { merchantId } = parseParams(InternalWalletParams, req);
    const wallet = await ctx.wallets.primary(merchantId);
    if (!wallet) throw notFound('Wallet');
    const view: MerchantWallet = {
      id: wallet.id,
      address: wallet.address,
      blockchain: wallet.blockchain,
      chainId: wallet.chainId,
    };
    ok(res, { wallet: view });
  };

/**
 * GET /internal/wallets/:merchantId/balances (service): the same balances as /wallets/api/balance,
 * for services deciding whether a merchant's funds cover a refund or a withdrawal.
 */
const internalBalancesRoute =
  (ctx: WatcherContext): RequestHandler =>
  async (req, res) => {
    const { merchantId } = parseParams(InternalWalletParams, req);
    ok(res, await walletBalance(ctx, merchantId));
  };

export const walletsRouter = (ctx: WatcherContext): Router => {
  const r = Router();
  r.get('/wallets/api/balance', apiKeyOnly, balanceRoute(ctx));
  r.get('/internal/wallets/:merchantId', serviceOnly, internalWalletRoute(ctx));
  r.get('/internal/wallets/:merchantId/balances', serviceOnly, noStore, internalBalancesRoute(ctx));
  return r;
};
