import { chainById } from '@stablepay/contracts';
import { AppError, ok, type HandlerOf } from '@stablepay/platform';
import { RpcUnavailableError } from '../chain/rpc-errors.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { checkGaslessAuthorization } from './check.js';

/** POST /internal/gasless/check: what the payments service asks before it accepts an authorization. */
export const gaslessRoutes = (ctx: WatcherContext) => {
  const checkGaslessAuthorizationRoute: HandlerOf<'checkGaslessAuthorization'> = async ({ body, res }) => {
    const chain = chainById(ctx.registry, body.chainId)?.name ?? String(body.chainId);
    try {
      ok(res, await checkGaslessAuthorization(ctx, body));
    } catch (err) {
      const code = err instanceof AppError ? err.details[0]?.code : undefined;
      if (code) ctx.metrics.gaslessRefusals.inc({ chain, code });
      if (err instanceof RpcUnavailableError)
        throw new AppError('unavailable', `The ${chain} network cannot be reached; try again shortly`, [], 5);
      throw err;
    }
  };
  return { checkGaslessAuthorization: checkGaslessAuthorizationRoute };
};
