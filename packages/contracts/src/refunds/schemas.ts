import { z } from 'zod';
import { PaymentListItem } from '../payments/views.js';
import { messageEnvelope, successEnvelope } from '../shared/envelope.js';
import { Currency, PositiveDecimalInput, amountInCurrency } from '../shared/money.js';
import { listPage, pageParams } from '../shared/paging.js';
import { BlockchainName, IsoTimestamp, Uuid } from '../shared/scalars.js';
import { REFUND_NOTE_MAX, RefundReason, RefundStatus } from './status.js';

/** POST /refunds/api/create. `amount` omitted = full (remaining) payment amount. */
export const CreateRefundBody = z.object({
  paymentId: Uuid,
  amount: PositiveDecimalInput.optional(),
  reason: RefundReason,
  note: z.string().max(REFUND_NOTE_MAX).optional(),
});
export type CreateRefundBody = z.infer<typeof CreateRefundBody>;

/** What every view of a refund says (the API's and the webhook's): whose money, how much, where to. */
export const refundFields = {
  payment_id: Uuid,
  ...amountInCurrency,
  status: RefundStatus,
  destination_address: z.string(),
};

/** Creation result (201): status is `pending`, no tx_hash yet. */
export const CreatedRefund = z.object({
  id: Uuid,
  ...refundFields,
  blockchain: BlockchainName,
  reason: RefundReason,
});
export type CreatedRefund = z.infer<typeof CreatedRefund>;
export const CreateRefundResponse = successEnvelope(CreatedRefund);

export const REFUND_LIST_DEFAULT_LIMIT = 50;
export const REFUND_LIST_MAX_LIMIT = 200;

export const RefundListQuery = z.object({
  status: RefundStatus.optional(),
  currency: Currency.optional(),
  /** matches payment id, destination address, tx hash */
  search: z.string().trim().min(1).max(255).optional(),
  ...pageParams({ max: REFUND_LIST_MAX_LIMIT, default: REFUND_LIST_DEFAULT_LIMIT }),
});
export type RefundListQuery = z.infer<typeof RefundListQuery>;

export const RefundListItem = CreatedRefund.extend({
  /** null until the refund transaction has been submitted */
  tx_hash: z.string().nullable(),
  created_at: IsoTimestamp,
});
export type RefundListItem = z.infer<typeof RefundListItem>;

export const RefundListPage = listPage('refunds', RefundListItem);
export type RefundListPage = z.infer<typeof RefundListPage>;
export const RefundListResponse = successEnvelope(RefundListPage);

/** The refunded payment, as the payment list shows it. */
export const RefundPayment = PaymentListItem.pick({
  id: true,
  amount: true,
  currency: true,
  status: true,
  tx_hash: true,
  from_address: true,
  created_at: true,
});
export type RefundPayment = z.infer<typeof RefundPayment>;

export const RefundDetail = RefundListItem.extend({
  /** internal note; absent when none was given */
  note: z.string().optional(),
  failure_reason: z.string().nullable(),
  /** null until completed */
  completed_at: IsoTimestamp.nullable(),
  payment: RefundPayment,
  /**
   * Our extension: true while the refund waits for the merchant wallet to hold enough of the
   * token (the refund stays `pending` until then).
   */
  waiting_for_funds: z.boolean(),
});
export type RefundDetail = z.infer<typeof RefundDetail>;
export const RefundDetailResponse = successEnvelope(RefundDetail);

/** POST /refunds/api/:id/cancel: `{success: true}` (message optional). */
export const CancelRefundResponse = messageEnvelope.extend({});
export type CancelRefundResponse = z.infer<typeof CancelRefundResponse>;

export const RefundIdParams = z.object({ id: Uuid });
