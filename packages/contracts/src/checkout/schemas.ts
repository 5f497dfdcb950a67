import { z } from 'zod';
import { PaymentListItem } from '../payments/views.js';
import { successEnvelope } from '../shared/envelope.js';
import { Currency, DecimalString, PaymentAmountInput } from '../shared/money.js';
import {
  BlockchainName,
  EvmAddress,
  IsoTimestamp,
  MerchantPublicId,
  UUID_PATTERN,
} from '../shared/scalars.js';

export const CHECKOUT_SESSION_ID_RE = new RegExp(`^cs_(live|test)_${UUID_PATTERN}$`);
/** Checkout session id: `cs_live_<uuid>` (or `cs_test_<uuid>` for test-mode merchants). */
export const CheckoutSessionId = z.string().regex(CHECKOUT_SESSION_ID_RE, 'Invalid checkout session id');
export type CheckoutSessionId = z.infer<typeof CheckoutSessionId>;

export const CHECKOUT_EXPIRES_IN_MIN = 60;
export const CHECKOUT_EXPIRES_IN_MAX = 86400;
export const CHECKOUT_EXPIRES_IN_DEFAULT = 1800;
export const CHECKOUT_METADATA_MAX_PAIRS = 5;
export const CHECKOUT_METADATA_KEY_MAX = 40;
export const CHECKOUT_METADATA_VALUE_MAX = 500;

/** Up to 5 string key/value pairs; keys 1-40 chars, values up to 500 chars. */
export const CheckoutMetadata = z
  .record(z.string().min(1).max(CHECKOUT_METADATA_KEY_MAX), z.string().max(CHECKOUT_METADATA_VALUE_MAX))
  .refine((m) => Object.keys(m).length <= CHECKOUT_METADATA_MAX_PAIRS, {
    message: `metadata may hold at most ${CHECKOUT_METADATA_MAX_PAIRS} key-value pairs`,
  });

/**
 * POST /checkout/sessions body. URLs must be absolute http(s) URLs here; the HTTPS-only rule of
 * production is enforced by the payments service because it depends on deployment config.
 * Unknown fields are ignored.
 */
export const CreateCheckoutSessionBody = z.object({
  amount: PaymentAmountInput.optional(),
  currency: Currency.default('USDC'),
  return_url: z.url({ protocol: /^https?$/ }).max(2048),
  cancel_url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
  metadata: CheckoutMetadata.optional(),
  expires_in: z
    .number()
    .int()
    .min(CHECKOUT_EXPIRES_IN_MIN)
    .max(CHECKOUT_EXPIRES_IN_MAX)
    .default(CHECKOUT_EXPIRES_IN_DEFAULT),
});
export type CreateCheckoutSessionBody = z.infer<typeof CreateCheckoutSessionBody>;
export type CreateCheckoutSessionInput = z.input<typeof CreateCheckoutSessionBody>;

export const CreatedCheckoutSession = z.object({
  id: CheckoutSessionId,
  /** `{checkout_url}?session=<id>` */
  url: z.string(),
  expires_at: IsoTimestamp,
});
export type CreatedCheckoutSession = z.infer<typeof CreatedCheckoutSession>;
export const CreateCheckoutSessionResponse = successEnvelope(CreatedCheckoutSession);
export type CreateCheckoutSessionResponse = z.infer<typeof CreateCheckoutSessionResponse>;

export const CheckoutSessionStatus = z.enum(['open', 'complete', 'expired']);
export type CheckoutSessionStatus = z.infer<typeof CheckoutSessionStatus>;

/** The payment linked to a session (spec: id, status, tx_hash, amount, is_cross_chain). */
export const CheckoutSessionPayment = PaymentListItem.pick({
  id: true,
  status: true,
  tx_hash: true,
  amount: true,
  is_cross_chain: true,
});
export type CheckoutSessionPayment = z.infer<typeof CheckoutSessionPayment>;

const sessionFields = {
  id: CheckoutSessionId,
  status: CheckoutSessionStatus,
  /** null when the session was created without an amount (variable amount). */
  amount: DecimalString.nullable(),
  currency: Currency,
  return_url: z.string(),
  cancel_url: z.string().nullable(),
  /** null until a payment is linked. */
  payment: CheckoutSessionPayment.nullable(),
  created_at: IsoTimestamp,
  expires_at: IsoTimestamp,
};

/** GET /checkout/sessions/:id (key). */
export const CheckoutSession = z.object({
  ...sessionFields,
  metadata: z.record(z.string(), z.string()),
});
export type CheckoutSession = z.infer<typeof CheckoutSession>;
export const CheckoutSessionResponse = successEnvelope(CheckoutSession);

/** What the widget needs to render and to call POST /payments/create-public. */
export const PublicCheckoutMerchant = z.object({
  /** public merchant id, passed back as `merchantId` on payment creation */
  id: MerchantPublicId,
  name: z.string(),
  blockchain: BlockchainName,
  wallet_address: EvmAddress.nullable(),
  chain_id: z.number().int().nullable(),
  /** the merchant's logo as we serve it (GET /merchants/:id/logo), relative to the API's base URL; null without one */
  logo_url: z.string().nullable(),
  /** `#rrggbb`, readable under white text (4.5:1); null: the page's own colour */
  accent_color: z.string().nullable(),
});

/**
 * The public view's payment adds what the checkout page needs to ask for a top-up (extensions):
 * the payer, what arrived so far, and while the payment awaits a top-up what is still missing and
 * until when it may come.
 */
export const PublicCheckoutSessionPayment = CheckoutSessionPayment.extend({
  from_address: z.string(),
  /** what the chain showed reached the merchant wallet so far; null until known */
  received_amount: DecimalString.nullable(),
  /** amount − received_amount while the payment awaits a top-up, else null */
  amount_due: DecimalString.nullable(),
  /** when the top-up window closes (the session's expires_at) while it is open, else null */
  top_up_until: IsoTimestamp.nullable(),
  /** true while a reported top-up is being checked on the chain */
  top_up_pending: z.boolean(),
});
export type PublicCheckoutSessionPayment = z.infer<typeof PublicCheckoutSessionPayment>;

/** GET /checkout/sessions/:id/public: no metadata; adds `merchant`. */
export const PublicCheckoutSession = z.object({
  ...sessionFields,
  payment: PublicCheckoutSessionPayment.nullable(),
  merchant: PublicCheckoutMerchant,
});
export type PublicCheckoutSession = z.infer<typeof PublicCheckoutSession>;
export const PublicCheckoutSessionResponse = successEnvelope(PublicCheckoutSession);
export type PublicCheckoutSessionResponse = z.infer<typeof PublicCheckoutSessionResponse>;

export const CheckoutSessionIdParams = z.object({ id: CheckoutSessionId });
