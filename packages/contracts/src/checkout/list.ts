import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { listPage, pageParams } from '../shared/paging.js';
import { CheckoutSession, CheckoutSessionStatus } from './schemas.js';

/** GET /checkout/sessions (key) and GET /checkout-sessions (jwt): an extension, paged like refunds. */
export const CHECKOUT_SESSION_LIST_DEFAULT_LIMIT = 50;
export const CHECKOUT_SESSION_LIST_MAX_LIMIT = 200;

export const CheckoutSessionListQuery = z.object({
  status: CheckoutSessionStatus.optional(),
  ...pageParams({ max: CHECKOUT_SESSION_LIST_MAX_LIMIT, default: CHECKOUT_SESSION_LIST_DEFAULT_LIMIT }),
});
export type CheckoutSessionListQuery = z.infer<typeof CheckoutSessionListQuery>;

/** The session view plus the link the customer opens, as POST /checkout/sessions answered it. */
export const CheckoutSessionListItem = CheckoutSession.extend({ url: z.string() });
export type CheckoutSessionListItem = z.infer<typeof CheckoutSessionListItem>;

export const CheckoutSessionListPage = listPage('sessions', CheckoutSessionListItem);
export const CheckoutSessionListResponse = successEnvelope(CheckoutSessionListPage);
