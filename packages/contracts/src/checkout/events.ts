import { z } from 'zod';
import { eventPaymentFields } from '../events/envelope.js';
import { amountInCurrency } from '../shared/money.js';
import { IsoTimestamp, Uuid } from '../shared/scalars.js';

export const CheckoutSessionCompletedData = z.object({
  sessionId: z.string(),
  ...eventPaymentFields,
  ...amountInCurrency,
  completedAt: IsoTimestamp,
});
export type CheckoutSessionCompletedData = z.infer<typeof CheckoutSessionCompletedData>;

export const CheckoutSessionExpiredData = z.object({
  sessionId: z.string(),
  merchantId: Uuid,
  expiredAt: IsoTimestamp,
});
export type CheckoutSessionExpiredData = z.infer<typeof CheckoutSessionExpiredData>;
