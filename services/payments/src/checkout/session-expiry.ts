import type { Knex } from 'knex';
import { EventTypes } from '@stablepay/contracts';
import type { PaymentsContext } from '../context.js';
import type { CheckoutSessionRecord } from '../records.js';
import { closeOverdueTopUpsIn } from './top-up-verdicts.js';

/** Open (the machine's guard), unpaid and past its time by the database clock. */
const unpaidAndDue = (q: Knex.QueryBuilder) => q.whereNull('payment_id').andWhereRaw('expires_at <= now()');

const expiredEvent = (s: CheckoutSessionRecord) => ({
  type: EventTypes.CheckoutSessionExpired,
  merchantId: s.merchantId,
  data: {
    sessionId: s.id,
    merchantId: s.merchantId,
    expiredAt: (s.expiredAt ?? s.updatedAt).toISOString(),
  },
});

/**
 * Expires open, unpaid sessions whose time is up: one session (`id`) or a batch of the oldest. A
 * batch skips rows locked right now (a payment being linked, or another replica's sweep), so
 * replicas sweep side by side; a single session waits for its lock instead, so that a reader who
 * finds nothing to expire then sees the other writer's result.
 */
const expireDueIn = async (
  ctx: PaymentsContext,
  trx: Knex.Transaction,
  opts: { id?: string; limit: number },
): Promise<number> => {
  const change = { when: unpaidAndDue, patch: { expired_at: trx.fn.now() }, events: expiredEvent };
  if (opts.id !== undefined) {
    return (await ctx.sessions.apply(trx, opts.id, 'expire', change)).applied ? 1 : 0;
  }
  const expired = await ctx.sessions.applyToMany(trx, 'expire', {
    ...change,
    limit: opts.limit,
    orderBy: 'expires_at',
    skipLocked: true,
  });
  return expired.length;
};

/**
 * Expires open, unpaid sessions past their time (one, or a batch), writing checkout.session.expired
 * for each in the same transaction. Returns how many it expired.
 */
export const expireDueSessions = (
  ctx: PaymentsContext,
  opts: { id?: string; limit?: number } = {},
): Promise<number> =>
  ctx.db.transaction(async (trx) => {
    // A payment whose top-up window closed short fails first, releasing its session to expire here.
    await closeOverdueTopUpsIn(ctx, trx, { sessionId: opts.id, limit: opts.limit ?? 100 });
    return expireDueIn(ctx, trx, { id: opts.id, limit: opts.limit ?? 100 });
  });
