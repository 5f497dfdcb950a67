import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { DecimalString, amountInCurrency } from '../shared/money.js';
import { IsoTimestamp, Uuid } from '../shared/scalars.js';
import { PaymentStatus } from './status.js';
import { PaymentFunding } from './views.js';

/** Service-to-service route of the payments service: one payment as its merchant's. */
export const InternalPaymentParams = z.object({ merchantId: Uuid, id: Uuid });

/**
 * A payment as the payments service holds it now, for a service whose projection has not caught
 * up yet (the refunds service, before payment.completed reaches it).
 */
export const InternalPayment = z.object({
  payment_id: Uuid,
  merchant_id: Uuid,
  ...amountInCurrency,
  status: PaymentStatus,
  tx_hash: z.string(),
  from_address: z.string(),
  source_chain: z.string(),
  /** null for same-chain payments */
  destination_chain: z.string().nullable(),
  is_cross_chain: z.boolean(),
  created_at: IsoTimestamp,
  /** null until the payment completes */
  completed_at: IsoTimestamp.nullable(),
  /**
   * What reached the merchant wallet, once known (also of a payment that failed underpaid), why it
   * failed, and when. Optional so that answers of earlier releases still parse.
   */
  received_amount: DecimalString.nullable().optional(),
  failure_reason: z.string().nullable().optional(),
  failed_at: IsoTimestamp.nullable().optional(),
  /** transfer, or a gasless authorization; optional so that answers of earlier releases still parse */
  funding: PaymentFunding.optional(),
});
export type InternalPayment = z.infer<typeof InternalPayment>;
export const InternalPaymentResponse = successEnvelope(InternalPayment);
