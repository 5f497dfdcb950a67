import type { CreatePublicPaymentInput } from '@stablepay/contracts';
import { toDecimal } from '../money.js';
import type { PayContext, PendingPayment } from './types.js';

/**
 * POST /payments/create-public for a transfer already on-chain. Idempotent on txHash, so a reload
 * that records again gets the same payment back.
 */
export const recordPayment = async (
  ctx: PayContext,
  pending: PendingPayment,
  extra: Partial<CreatePublicPaymentInput> & { txHash: string; chainId: number },
): Promise<string> => {
  if (pending.paymentId) return pending.paymentId;
  ctx.onStep({ kind: 'record', state: 'active' });
  const { target } = ctx;
  const created = await ctx.api.createPayment({
    merchantId: target.merchantId,
    amount: toDecimal(BigInt(pending.amount)),
    token: pending.token,
    fromAddress: pending.account,
    toAddress: target.walletAddress,
    customerEmail: pending.email,
    language: ctx.language,
    ...(target.sessionId ? { sessionId: target.sessionId } : {}),
    ...(pending.proof ? { sessionProof: pending.proof } : {}),
    ...(target.reference ? { reference: target.reference } : {}),
    ...extra,
  } as CreatePublicPaymentInput);
  pending.paymentId = created.paymentId;
  ctx.save(pending);
  ctx.onStep({ kind: 'record', state: 'done' });
  return created.paymentId;
};
