import type { Knex } from 'knex';
import type { EventDataInput, EventType, RefundEventData } from '@stablepay/contracts';
import { buildEvent, enqueueEvent } from '@stablepay/platform';
import type { RefundRecord } from '../domain/records.js';

export const PRODUCER = 'refunds';

/**
 * Writes an integration event to the outbox in the caller's transaction. buildEvent checks the data
 * against the contracts' catalogue, so no consumer ever receives a payload it would reject.
 */
export const writeEvent = async <T extends EventType>(
  trx: Knex.Transaction,
  type: T,
  merchantId: string,
  data: EventDataInput<T>,
): Promise<void> => {
  await enqueueEvent(trx, buildEvent<T>({ type, producer: PRODUCER, merchantId, data }));
};

/** The spec's refund event fields plus the merchant; `failure_reason` only on refund.failed. */
export const refundEventData = (r: RefundRecord): RefundEventData => ({
  refund_id: r.id,
  merchant_id: r.merchantId,
  payment_id: r.paymentId,
  amount: r.amount,
  currency: r.currency,
  status: r.status,
  destination_address: r.destinationAddress,
  blockchain: r.blockchain,
  reason: r.reason,
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
