import type { Knex } from 'knex';
import type { RefundEventData } from '@stablepay/contracts';
import { writeEvent } from '../context.js';
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

export const writeRefundEvent = (
  trx: Knex.Transaction,
  type: RefundEventType,
  r: RefundRecord,
): Promise<void> => writeEvent(trx, type, r.merchantId, refundEventData(r));
