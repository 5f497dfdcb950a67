import type { ChainConfig } from '@stablepay/contracts';
import type { ChainRpc } from '../chain/chain-rpc.js';
import type { GaslessCrashPoint } from '../config.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { killAt } from '../relayer/crash-point.js';

/**
 * What one look at a gasless payment concluded when it stays in `submit`: look again later, at the
 * poll pace while only blocks are awaited (`steady`), with growing back-off otherwise.
 */
export interface GaslessWait {
  kind: 'wait';
  detail: string;
  steady?: boolean;
}

export const waitFor = (detail: string, opts: { steady?: boolean } = {}): GaslessWait => ({
  kind: 'wait',
  detail,
  ...opts,
});

/** The payment's chain, its token contract and a client for it. */
export interface GaslessRoute {
  chain: ChainConfig;
  rpc: ChainRpc;
  token: string;
}

/** Test-only: where the submission kills its own process (GASLESS_CRASH_POINT). */
export const crashAt = (ctx: WatcherContext, point: GaslessCrashPoint): void =>
  killAt(ctx.logger, { name: 'GASLESS_CRASH_POINT', point: ctx.gasless.crashPoint }, point);
