import type { Knex } from 'knex';
import { chainById, decimalToBaseUnits, type PaymentCreatedData } from '@stablepay/contracts';
import { PermanentError, currentContext, writeBatched } from '@stablepay/platform';
import { lockChainTransactions, markAllMatched } from './unclaimed-repo.js';
import { insertVerifications, type ReportedVerification } from './verifications-repo.js';
import { trackCrossChainPayment } from '../cctp/track.js';
import type { WatcherContext } from '../context/watcher-context.js';

const unitsOf = (p: PaymentCreatedData, amount: string): bigint => {
  try {
    return decimalToBaseUnits(amount);
  } catch (err) {
    // An amount that is not a token amount can never be verified, however often it is retried.
    throw new PermanentError(`payment ${p.paymentId}: ${(err as Error).message}`);
  }
};

/**
 * The least a payment's transaction must move: its amount, or its expectedAmount when that is more
 * (a QR-tagged session amount). A caller's expectedAmount below the amount lowers nothing: the
 * merchant is owed at least the amount the payment is for.
 */
export const expectedUnitsOf = (p: PaymentCreatedData): bigint => {
  const amount = unitsOf(p, p.amount);
  const expected = p.expectedAmount === null ? amount : unitsOf(p, p.expectedAmount);
  return expected > amount ? expected : amount;
};

/** The payments of a batch of deliveries, recorded together (see paymentTracker). */
const recordPayments =
  (ctx: WatcherContext) =>
  async (trx: Knex.Transaction, payments: ReportedVerification[]): Promise<void> => {
    await lockChainTransactions(trx, payments);
    await insertVerifications(trx, payments);
    const matched = await markAllMatched(trx, payments);
    for (const p of payments) {
      const n = matched.get(p.paymentId);
      if (!n) continue;
      const chain = chainById(ctx.registry, p.chainId)?.name ?? String(p.chainId);
      ctx.metrics.unclaimedMatched.inc({ chain }, n);
      ctx.logger.info('unclaimed transfer matched', {
        paymentId: p.paymentId,
        chain,
        txHash: p.txHash,
        ...(p.correlationId ? { correlationId: p.correlationId } : {}),
      });
    }
  };

/**
 * Records a new payment as a verification to do, in the transaction that consumes payment.created:
 * the chain is asked later by the verifier, outside any transaction, so a slow RPC never holds a
 * message or a lock. A transfer the scanner already recorded as unclaimed is matched to it, under
 * the transaction's lock so that neither misses the other. Cross-chain payments are followed by the
 * CCTP flow instead.
 *
 * Deliveries handled together are recorded in three statements whatever their number (the locks,
 * the rows, the matches), before their shared transaction commits: nothing else in that transaction
 * reads them back.
 */
export const paymentTracker = (
  ctx: WatcherContext,
): ((trx: Knex.Transaction, p: PaymentCreatedData) => Promise<void>) => {
  const record = recordPayments(ctx);
  return async (trx, p) => {
    if (p.isCrossChain) return trackCrossChainPayment(trx, p, expectedUnitsOf(p), unitsOf(p, p.amount));
    await writeBatched(trx, record, {
      paymentId: p.paymentId,
      merchantId: p.merchantId,
      txHash: p.txHash.toLowerCase(),
      chainId: p.chainId,
      sourceChain: p.sourceChain,
      token: p.currency,
      fromAddress: p.fromAddress,
      toAddress: p.toAddress,
      expectedUnits: expectedUnitsOf(p),
      sessionCreatedAt: p.sessionCreatedAt ? new Date(p.sessionCreatedAt) : null,
      paymentCreatedAt: new Date(p.createdAt),
      correlationId: currentContext().correlationId ?? null,
    });
  };
};
