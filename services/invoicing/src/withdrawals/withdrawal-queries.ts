import type { WithdrawalListQuery } from '@stablepay/contracts';
import { notFound } from '@stablepay/platform';
import { findWithdrawal, listWithdrawals } from './withdrawals-repo.js';
import type { InvoicingContext } from '../context.js';
import type { WithdrawalRecord } from './records.js';

/** Another merchant's withdrawal is not found, never forbidden. */
export const getMerchantWithdrawal = async (
  ctx: InvoicingContext,
  merchantId: string,
  id: string,
): Promise<WithdrawalRecord> => {
  const w = await findWithdrawal(ctx.db, id, merchantId);
  if (!w) throw notFound('Withdrawal');
  return w;
};

export const listMerchantWithdrawals = async (
  ctx: InvoicingContext,
  merchantId: string,
  q: WithdrawalListQuery,
): Promise<{ withdrawals: WithdrawalRecord[]; total: number; limit: number; offset: number }> => {
  const { withdrawals, total } = await listWithdrawals(ctx.db, { merchantId, ...q });
  return { withdrawals, total, limit: q.limit, offset: q.offset };
};
