import { ok, type HandlerOf } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { relayerViews } from './relayers.js';

/** GET /internal/relayers: where to send gas. */
export const relayerRoutes = (ctx: WatcherContext) => {
  const listRelayers: HandlerOf<'listRelayers'> = async ({ res }) =>
    ok(res, { relayers: await relayerViews(ctx) });
  return { listRelayers };
};
