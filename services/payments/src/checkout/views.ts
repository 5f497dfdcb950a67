import type {
  CheckoutSession,
  CheckoutSessionPayment,
  PublicCheckoutSession,
  PublicCheckoutSessionPayment,
  TopUp,
} from '@stablepay/contracts';
import type { CheckoutSessionRecord, MerchantRecord, PaymentRecord } from '../records.js';
import type { TopUpRecord } from './top-ups-repo.js';
import { amountDue, isAwaitingTopUp } from './top-ups.js';

/** Checkout session records → the spec's response views; each view lists exactly its fields. */

/** Where a merchant's URL takes the session's id (Stripe's convention). */
export const SESSION_ID_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';

/**
 * A return or cancel URL as the customer is sent to it: the URL is stored as the merchant gave it,
 * and every view fills in the placeholder, so the API, the page and the redirect all show one URL.
 */
export const withSessionId = (url: string, sessionId: string): string =>
  url.replaceAll(SESSION_ID_PLACEHOLDER, sessionId);

const toSessionPayment = (p: PaymentRecord | null): CheckoutSessionPayment | null =>
  p && { id: p.id, status: p.status, tx_hash: p.txHash, amount: p.amount, is_cross_chain: p.isCrossChain };

const sessionFields = (s: CheckoutSessionRecord, p: PaymentRecord | null) => ({
  id: s.id,
  status: s.status,
  amount: s.amount,
  currency: s.currency,
  return_url: withSessionId(s.returnUrl, s.id),
  cancel_url: s.cancelUrl && withSessionId(s.cancelUrl, s.id),
  payment: toSessionPayment(p),
  created_at: s.createdAt.toISOString(),
  expires_at: s.expiresAt.toISOString(),
});

export const toSessionView = (s: CheckoutSessionRecord, p: PaymentRecord | null): CheckoutSession => ({
  ...sessionFields(s, p),
  metadata: s.metadata,
});

const toPublicSessionPayment = (
  p: PaymentRecord | null,
  topUpPending: boolean,
): PublicCheckoutSessionPayment | null =>
  p && {
    ...toSessionPayment(p)!,
    from_address: p.fromAddress,
    received_amount: p.receivedAmount,
    amount_due: amountDue(p),
    top_up_until: isAwaitingTopUp(p) ? p.awaitingTopUpUntil!.toISOString() : null,
    top_up_pending: topUpPending,
  };

export const toPublicSessionView = (
  s: CheckoutSessionRecord,
  p: PaymentRecord | null,
  m: MerchantRecord,
  topUpPending = false,
): PublicCheckoutSession => ({
  ...sessionFields(s, p),
  payment: toPublicSessionPayment(p, topUpPending),
  merchant: {
    id: m.publicId,
    name: m.name,
    blockchain: m.blockchain,
    wallet_address: m.wallet?.address ?? null,
    chain_id: m.wallet?.chainId ?? null,
  },
});

export const toTopUpView = (t: TopUpRecord): TopUp => ({
  id: t.id,
  payment_id: t.paymentId,
  tx_hash: t.txHash,
  status: t.status,
  received_amount: t.receivedAmount,
  rejection_reason: t.rejectionReason,
  created_at: t.createdAt.toISOString(),
});
