import { errorText, forEachConcurrent, loopWorker, runWithContext, type Worker } from '@stablepay/platform';
import type { BalanceSource, WalletBalances } from './balances.js';
import type { RefundsConfig } from '../config.js';
import { claimDueRefunds, deferDispatch, type DueRefund } from './dispatch-repo.js';
import type { RefundsContext } from '../context.js';
import { decideDispatch } from './decide-dispatch.js';

const BATCH = 100;
/** Merchants whose balances are asked for at once. */
const CONCURRENCY = 4;
const MAX_BACKOFF_MS = 60_000;

export interface DispatcherOptions {
  holdSeconds: number;
  pollMs: number;
  /** How long a claimed refund is reserved for this replica (covers the balance request). */
  leaseMs: number;
}

/** The lease outlives several balance requests that time out, so a slow pass keeps its refunds. */
export const dispatcherOptions = (config: RefundsConfig): DispatcherOptions => ({
  holdSeconds: config.REFUND_HOLD_SECONDS,
  pollMs: config.DISPATCH_POLL_MS,
  leaseMs: Math.max(60_000, config.CHAIN_WATCHER_TIMEOUT_MS * 4),
});

/** What the wallet holds of the refund's token on the refund's chain; nothing when it is elsewhere. */
const balanceFor = (ctx: RefundsContext, wallet: WalletBalances | null, r: DueRefund): string => {
  if (!wallet) {
    ctx.logger.warn('merchant has no wallet; refund stays pending', {
      refundId: r.id,
      merchantId: r.merchantId,
    });
    return '0';
  }
  if (wallet.blockchain !== r.blockchain) {
    ctx.logger.warn('merchant wallet is on another chain than the refund; refund stays pending', {
      refundId: r.id,
      walletChain: wallet.blockchain,
      refundChain: r.blockchain,
    });
    return '0';
  }
  return wallet.amountOf(r.currency);
};

/**
 * One pass: lease the refunds whose hold has passed, read each merchant's balances once (outside
 * any transaction), then decide the merchant's refunds oldest first. A balance that cannot be read
 * leaves the merchant's refunds pending with an exponential backoff.
 */
export const dispatchPass = async (
  ctx: RefundsContext,
  balances: BalanceSource,
  opts: DispatcherOptions,
): Promise<number> => {
  const due = await claimDueRefunds(ctx.db, {
    holdSeconds: opts.holdSeconds,
    leaseMs: opts.leaseMs,
    limit: BATCH,
  });
  const byMerchant = new Map<string, DueRefund[]>();
  for (const r of due) byMerchant.set(r.merchantId, [...(byMerchant.get(r.merchantId) ?? []), r]);
  await forEachConcurrent([...byMerchant], CONCURRENCY, async ([merchantId, refunds]) => {
    let wallet: WalletBalances | null;
    try {
      wallet = await balances.walletBalances(merchantId);
    } catch (err) {
      ctx.logger.warn('wallet balance unavailable; refunds stay pending and are retried', {
        merchantId,
        refunds: refunds.length,
        err: errorText(err),
      });
      await deferDispatch(
        ctx.db,
        refunds.map((r) => r.id),
        { baseMs: opts.pollMs, maxMs: MAX_BACKOFF_MS },
      );
      return;
    }
    for (const r of refunds) {
      try {
        await runWithContext({ correlationId: r.correlationId ?? undefined }, () =>
          decideDispatch(ctx, r, balanceFor(ctx, wallet, r), { recheckMs: opts.pollMs }),
        );
      } catch (err) {
        // Its lease runs out and a later pass takes it up again.
        ctx.logger.warn('refund dispatch failed', { refundId: r.id, err: errorText(err) });
      }
    }
  });
  return due.length;
};

/**
 * Sends refunds on their way. Every replica may run one: leases taken with SKIP LOCKED hand each
 * refund to one replica at a time, and the guarded pending → processing update lets exactly one
 * transfer command out per refund.
 */
export const dispatcherWorker = (
  ctx: RefundsContext,
  balances: BalanceSource,
  opts: DispatcherOptions,
): Worker =>
  loopWorker({
    name: 'refund-dispatcher',
    intervalMs: opts.pollMs,
    logger: ctx.logger,
    pass: async () => (await dispatchPass(ctx, balances, opts)) === BATCH,
  });
