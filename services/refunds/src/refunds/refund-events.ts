import type { PlannedEvent } from '@stablepay/platform';
import type { RefundEventData } from '@stablepay/contracts';
import { refundFields, type RefundRecord } from './records.js';

/** The spec's refund event fields plus the merchant; `failure_reason` only on refund.failed. */
export const refundEventData = (r: RefundRecord): RefundEventData => ({
  refund_id: r.id,
  merchant_id: r.merchantId,
  ...refundFields(r),
  tx_hash: r.txHash,
  ...(r.status === 'failed' ? { failure_reason: r.failureReason } : {}),
  created_at: r.createdAt.toISOString(),
});

type RefundEventType = 'refund.created' | 'refund.completed' | 'refund.failed' | 'refund.cancelled';

/** The refund event of `type` about `r`, for a transition's event plan or the writer. */
export const refundEvent = (type: RefundEventType, r: RefundRecord): PlannedEvent => ({
  type,
  merchantId: r.merchantId,
  data: refundEventData(r),
});
