import type { ChainRpc } from '../chain/chain-rpc.js';
import { authorizationDomain, tokenName } from '../chain/fiat-token.js';
import type { WatcherContext } from '../context/watcher-context.js';

/** The EIP-712 domain of a token, its name read once from the contract. */
export const tokenDomain = async (ctx: WatcherContext, rpc: ChainRpc, token: string) => {
  const key = `${rpc.chain.chainId}:${token.toLowerCase()}`;
  let name = ctx.tokenNames.get(key);
  if (name === undefined) {
    name = await tokenName(rpc, token);
    ctx.tokenNames.set(key, name);
  }
  return authorizationDomain(name, rpc.chain.chainId, token);
};
