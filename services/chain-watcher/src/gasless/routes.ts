import { chainById } from '@stablepay/contracts';
import { AppError, ok, type HandlerOf } from '@stablepay/platform';
import { RpcUnavailableError } from '../chain/rpc-errors.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { tokenDomain } from '../relayer/token-domain.js';
import { checkGaslessAuthorization } from './check.js';
import { estimateGaslessGas } from './estimate.js';

/**
 * POST /internal/gasless/check: what the payments service asks before it accepts an authorization;
 * GET /internal/gasless/token-domain: what the customer's wallet signs against, for the quote;
 * GET /internal/gasless/gas-estimate: the relay's gas on the customer's chain, for the quote.
 */
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
  const getGaslessTokenDomain: HandlerOf<'getGaslessTokenDomain'> = async ({ query, res }) => {
    const chain = chainById(ctx.registry, query.chainId);
    const token = chain?.tokens[query.token];
    const rpc = ctx.chains.get(query.chainId);
    if (!chain || !token || !rpc)
      throw new AppError('not_found', `${query.token} is not served on chain ${query.chainId}`);
    const domain = await tokenDomain(ctx, rpc, token);
    ok(res, {
      name: String(domain.name),
      version: String(domain.version),
      chainId: chain.chainId,
      verifyingContract: String(domain.verifyingContract),
    });
  };
  const getGaslessGasEstimate: HandlerOf<'getGaslessGasEstimate'> = async ({ query, res }) => {
    try {
      ok(res, await estimateGaslessGas(ctx, query));
    } catch (err) {
      if (err instanceof RpcUnavailableError)
        throw new AppError(
          'unavailable',
          `Chain ${query.chainId} cannot be reached; try again shortly`,
          [],
          5,
        );
      throw err;
    }
  };
  return {
    checkGaslessAuthorization: checkGaslessAuthorizationRoute,
    getGaslessTokenDomain,
    getGaslessGasEstimate,
  };
};
