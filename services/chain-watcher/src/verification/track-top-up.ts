import type { Knex } from 'knex';
import type { PaymentTopUpReportedData } from '@stablepay/contracts';
import { insertTopUpVerification } from './top-ups-repo.js';
import { lockTransaction, markMatched } from './unclaimed-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';

/**
 * Records a reported top-up as a verification to do, in the transaction that consumes
 * payment.top_up.reported; the top-up verifier asks the chain later. As for a payment, a transfer
 * the scanner already recorded as unclaimed is matched under the transaction's lock.
 */
export const trackTopUp = async (
  ctx: WatcherContext,
  trx: Knex.Transaction,
  t: PaymentTopUpReportedData,
): Promise<void> => {
  const txHash = t.txHash.toLowerCase();
  await lockTransaction(trx, t.chainId, txHash);
  if (!(await insertTopUpVerification(trx, t))) return;
  const matched = await markMatched(trx, t.chainId, txHash, t.paymentId);
  if (matched > 0)
    ctx.logger.info('unclaimed transfer matched to a top-up', { paymentId: t.paymentId, txHash });
};
