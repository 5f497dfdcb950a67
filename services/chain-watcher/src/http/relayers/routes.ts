import { ok, type HandlerOf } from '@stablepay/platform';
import type { WatcherContext } from '../../domain/context.js';
import { relayerViews } from '../../domain/transfers/relayers.js';

/** GET /internal/relayers: where to send gas. */
export const relayerRoutes = (ctx: WatcherContext) => {
  const listRelayers: HandlerOf<'listRelayers'> = async ({ res }) =>
    ok(res, { relayers: await relayerViews(ctx) });
  return { listRelayers };
};
