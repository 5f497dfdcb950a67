import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { DecimalString } from '../shared/money.js';
import { IsoTimestamp, TxHash, Uuid } from '../shared/scalars.js';

/** POST /checkout/sessions/:id/top-ups body: the customer's transaction, a claim the chain checks. */
export const ReportTopUpBody = z.object({ txHash: TxHash });

export const TopUpStatus = z.enum(['pending', 'verified', 'rejected']);
export type TopUpStatus = z.infer<typeof TopUpStatus>;

/** A reported top-up and what the chain said of it. */
export const TopUp = z.object({
  id: Uuid,
  payment_id: Uuid,
  tx_hash: z.string(),
  status: TopUpStatus,
  /** what the transaction moved from the payer to the merchant wallet, once verified */
  received_amount: DecimalString.nullable(),
  /** why the chain refused it (the payment rejection reasons), once rejected */
  rejection_reason: z.string().nullable(),
  created_at: IsoTimestamp,
});
export type TopUp = z.infer<typeof TopUp>;
export const TopUpResponse = successEnvelope(TopUp);

/** One transfer that paid (part of) a payment, with its hash: the first one and each top-up. */
export const PaymentTransfer = z.object({
  tx_hash: z.string(),
  /** null while the chain has not said how much it moved */
  amount: DecimalString.nullable(),
  kind: z.enum(['payment', 'top_up']),
  status: TopUpStatus,
  block_number: z.number().int().nullable(),
});
export type PaymentTransfer = z.infer<typeof PaymentTransfer>;
