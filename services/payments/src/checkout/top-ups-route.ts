import type { TopUp } from '@stablepay/contracts';
import { ok, type HandlerOf } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import { reportTopUp } from './top-ups.js';
import type { TopUpRecord } from './top-ups-repo.js';

export const toTopUpView = (t: TopUpRecord): TopUp => ({
  id: t.id,
  payment_id: t.paymentId,
  tx_hash: t.txHash,
  status: t.status,
  received_amount: t.receivedAmount,
  rejection_reason: t.rejectionReason,
  created_at: t.createdAt.toISOString(),
});

/** POST /checkout/sessions/:id/top-ups (public): 201 for a new top-up, 200 for a known txHash. */
export const reportTopUpRoute =
  (ctx: PaymentsContext): HandlerOf<'reportCheckoutTopUp'> =>
  async ({ params, body, res }) => {
    const { topUp, created } = await reportTopUp(ctx, params.id, body.txHash);
    ok(res, toTopUpView(topUp), created ? 201 : 200);
  };
