import { z } from 'zod';

export const RefundStatus = z.enum(['pending', 'processing', 'completed', 'failed', 'cancelled']);
export type RefundStatus = z.infer<typeof RefundStatus>;
export const RefundStatuses = RefundStatus.enum;

export const RefundReason = z.enum(['duplicate', 'fraudulent', 'requested_by_customer', 'other']);
export type RefundReason = z.infer<typeof RefundReason>;

/** A refund may be created up to this many days after the payment completed. */
export const REFUND_WINDOW_DAYS = 180;
export const REFUND_NOTE_MAX = 500;
