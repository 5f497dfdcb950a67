import { z } from 'zod';
import { IsoTimestamp, Uuid } from '../shared/scalars.js';
import { RefundWebhookData } from '../webhooks/payloads.js';

/** refund.* data: the refund webhook data plus the internal merchant id. */
export const RefundEventData = RefundWebhookData.extend({
  merchant_id: Uuid,
  created_at: IsoTimestamp.optional(),
});
export type RefundEventData = z.infer<typeof RefundEventData>;
