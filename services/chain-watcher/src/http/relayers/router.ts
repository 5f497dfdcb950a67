import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { BlockchainName, ChainId, EvmAddress } from '@stablepay/contracts';
import { ok } from '@stablepay/platform';
import type { WatcherContext } from '../../domain/context.js';
import { serviceOnly } from '../auth.js';
import { noStore } from '../wallets/router.js';

/** One relayer: the account to keep funded with the chain's native coin. */
export const RelayerView = z.object({
  blockchain: BlockchainName,
  chainId: ChainId,
  address: EvmAddress,
  /** configured: RELAYER_PRIVATE_KEYS; derived: from the master seed */
  source: z.enum(['configured', 'derived']),
  /** native balance in wei as a decimal string; null when the chain cannot be reached */
  nativeBalanceWei: z.string().regex(/^\d+$/).nullable(),
});
export type RelayerView = z.infer<typeof RelayerView>;

/** GET /internal/relayers (service): where to send gas. Addresses only, never a key. */
const relayersRoute =
  (ctx: WatcherContext): RequestHandler =>
  async (_req, res) => {
    const relayers = await Promise.all(
      ctx.relayers.list().map(async (r): Promise<RelayerView> => {
        const rpc = ctx.chains.get(r.chainId);
        const balance = rpc
          ? await rpc.call('eth_getBalance', (p) => p.getBalance(r.address)).catch(() => null)
          : null;
        return { ...r, nativeBalanceWei: balance === null ? null : balance.toString() };
      }),
    );
    ok(res, { relayers });
  };

export const relayersRouter = (ctx: WatcherContext): Router => {
  const r = Router();
  r.get('/internal/relayers', serviceOnly, noStore, relayersRoute(ctx));
  return r;
};
