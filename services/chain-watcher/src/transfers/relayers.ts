import type { RelayerView } from '@stablepay/contracts';
import type { WatcherContext } from '../context/watcher-context.js';

/**
 * Every chain's relayer with its native balance, for whoever keeps them funded with gas. Addresses
 * only, never a key; a chain that cannot be reached shows a null balance rather than failing the list.
 */
export const relayerViews = (ctx: WatcherContext): Promise<RelayerView[]> =>
  Promise.all(
    ctx.relayers.list().map(async (r): Promise<RelayerView> => {
      const rpc = ctx.chains.get(r.chainId);
      const balance = rpc
        ? await rpc.call('eth_getBalance', (p) => p.getBalance(r.address)).catch(() => null)
        : null;
      return { ...r, nativeBalanceWei: balance === null ? null : balance.toString() };
    }),
  );
