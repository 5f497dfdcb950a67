import { errorText, loopWorker, type LoopWorker } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { scanChain } from './unclaimed-transfers.js';

/** The recovery scanner over every chain of the registry; a chain whose RPC is down waits its turn. */
export const scannerWorker = (
  ctx: WatcherContext,
  opts: { intervalMs: number; maxBlocks: number },
): LoopWorker =>
  loopWorker({
    name: 'transfer-scanner',
    intervalMs: opts.intervalMs,
    logger: ctx.logger,
    pass: async () => {
      let more = false;
      for (const rpc of ctx.chains.all()) {
        try {
          if (await scanChain(ctx, rpc, opts.maxBlocks)) more = true;
        } catch (err) {
          ctx.logger.warn('transfer scan failed', { chain: rpc.chain.name, err: errorText(err) });
        }
      }
      return more;
    },
  });
