import { randomUUID } from 'node:crypto';
import type { CreateCheckoutSessionBody, ErrorDetail } from '@stablepay/contracts';
import { AppError, createOnce, fieldDetail, notFound, type RequestKey } from '@stablepay/platform';
import { findMerchantById } from '../merchants/merchants-repo.js';
import { findPayment } from '../payments/payments-repo.js';
import { hasPendingTopUp } from './top-ups-repo.js';
import { findSession, findSessionByRequestKey, insertSession } from './sessions-repo.js';
import type { PaymentsContext } from '../context.js';
import { expireDueSessions } from './session-expiry.js';
import { isAwaitingTopUp } from './top-ups.js';
import type { CheckoutSessionRecord, MerchantRecord, PaymentRecord } from '../records.js';

export const sessionUrl = (ctx: PaymentsContext, id: string): string => `${ctx.checkoutUrl}?session=${id}`;

/**
 * POST /checkout/sessions. With the client's Idempotency-Key (`requestKey`), the session that key
 * already opened is answered again: the gateway forgets a key whose answer it never got, so only
 * this check stops a second session for one order.
 */
export const createCheckoutSession = (
  ctx: PaymentsContext,
  merchantId: string,
  body: CreateCheckoutSessionBody,
  requestKey?: RequestKey,
): Promise<{ session: CheckoutSessionRecord; url: string }> =>
  createOnce({
    requestKey,
    uniqueIndex: 'checkout_sessions_merchant_request_key_idx',
    find: async (key) => {
      const found = await findSessionByRequestKey(ctx.db, merchantId, key);
      if (!found) return undefined;
      const { session, fingerprint } = found;
      return { made: { session, url: sessionUrl(ctx, session.id) }, fingerprint };
    },
    create: () => openSession(ctx, merchantId, body, requestKey),
  });

/** The rules that depend on deployment and on the merchant, then the new open session. */
const openSession = async (
  ctx: PaymentsContext,
  merchantId: string,
  body: CreateCheckoutSessionBody,
  requestKey: RequestKey | undefined,
): Promise<{ session: CheckoutSessionRecord; url: string }> => {
  const details: ErrorDetail[] = [];
  if (!ctx.allowInsecureUrls) {
    for (const field of ['return_url', 'cancel_url'] as const) {
      const url = body[field];
      if (url !== undefined && !url.toLowerCase().startsWith('https://')) {
        details.push(fieldDetail(field, `${field} must use HTTPS`, 'https_required'));
      }
    }
  }
  const merchant = await findMerchantById(ctx.db, merchantId);
  // The gateway has authenticated the merchant, so a missing projection is lag, not a bad request.
  if (!merchant) throw new AppError('unavailable', 'Merchant is not available yet; retry shortly', [], 1);
  if (!merchant.acceptedCurrencies.includes(body.currency)) {
    details.push(
      fieldDetail('currency', `This merchant does not accept ${body.currency}`, 'currency_not_accepted'),
    );
  }
  if (details.length > 0) throw new AppError('validation', 'Body validation failed', details);
  const session = await insertSession(
    ctx.db,
    {
      id: `${ctx.sessionIdPrefix}${randomUUID()}`,
      merchant_id: merchantId,
      amount: body.amount ?? null,
      currency: body.currency,
      return_url: body.return_url,
      cancel_url: body.cancel_url ?? null,
      metadata: body.metadata ?? {},
      expiresInSeconds: body.expires_in,
    },
    requestKey,
  );
  return { session, url: sessionUrl(ctx, session.id) };
};

export interface SessionWithPayment {
  session: CheckoutSessionRecord;
  payment: PaymentRecord | null;
}

/**
 * A session as of now: if it is past its time and the sweeper has not run yet, it is expired here
 * first (the same guarded update), so a reader never sees an open session that cannot be paid.
 */
export const getCheckoutSession = async (
  ctx: PaymentsContext,
  id: string,
  merchantId?: string,
): Promise<SessionWithPayment> => {
  let session = await findSession(ctx.db, id, merchantId);
  if (!session) throw notFound('Checkout session');
  let payment = session.paymentId ? ((await findPayment(ctx.db, session.paymentId)) ?? null) : null;
  const unpaidOrShort = session.paymentId === null || (payment !== null && isAwaitingTopUp(payment));
  if (session.status === 'open' && unpaidOrShort && session.expiresAt.getTime() <= Date.now()) {
    await expireDueSessions(ctx, { id, limit: 1 });
    // Read again whoever expired it: this request, the sweeper or a concurrent reader.
    session = (await findSession(ctx.db, id, merchantId)) ?? session;
    payment = session.paymentId ? ((await findPayment(ctx.db, session.paymentId)) ?? null) : null;
  }
  return { session, payment };
};

/** The widget's view also needs whom it is paying, and whether a top-up is being checked. */
export const getPublicCheckoutSession = async (
  ctx: PaymentsContext,
  id: string,
): Promise<SessionWithPayment & { merchant: MerchantRecord; topUpPending: boolean }> => {
  const found = await getCheckoutSession(ctx, id);
  const merchant = await findMerchantById(ctx.db, found.session.merchantId);
  if (!merchant) throw notFound('Checkout session');
  const topUpPending = found.payment !== null && (await hasPendingTopUp(ctx.db, found.payment.id));
  return { ...found, merchant, topUpPending };
};
