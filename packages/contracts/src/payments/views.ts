import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { DecimalString, amountInCurrency } from '../shared/money.js';
import { BlockchainName, ChainId, IsoTimestamp, JsonObject, Uuid } from '../shared/scalars.js';
import { PaymentTransfer } from '../top-ups/schemas.js';
import { PaymentStatus } from './status.js';

/** GET /payments/:id/status (public): no amounts, hashes or addresses. */
export const PaymentStatusView = z.object({
  id: Uuid,
  status: PaymentStatus,
  is_cross_chain: z.boolean(),
  /** null for bridge-kit and same-chain payments; set only for legacy relayer CCTP payments */
  cctp_attestation_status: z.string().nullable(),
  updated_at: IsoTimestamp,
});
export type PaymentStatusView = z.infer<typeof PaymentStatusView>;
export const PaymentStatusResponse = successEnvelope(PaymentStatusView);

/**
 * How the customer's money moved (an extension, docs/api/README.md#gasless-payments): `transfer`, a
 * transaction of the customer's own; `authorization`, an EIP-3009 authorization the customer signed
 * and the service's relay submitted (the customer spent no gas).
 */
export const PaymentFunding = z.enum(['transfer', 'authorization']);
export type PaymentFunding = z.infer<typeof PaymentFunding>;

/**
 * List view: the spec's fields, plus `funding` (an extension). `reference` is null when the payer gave none; `metadata` is
 * `{}` when none was given.
 */
export const PaymentListItem = z.object({
  id: Uuid,
  ...amountInCurrency,
  status: PaymentStatus,
  tx_hash: z.string(),
  from_address: z.string(),
  to_address: z.string(),
  source_chain: BlockchainName,
  is_cross_chain: z.boolean(),
  customer_email: z.string(),
  reference: z.string().nullable(),
  metadata: JsonObject,
  created_at: IsoTimestamp,
  funding: PaymentFunding,
});
export type PaymentListItem = z.infer<typeof PaymentListItem>;

/**
 * Detail view (GET /payments/api/:id): the spec's detail fields plus four of the fields the spec
 * refers to elsewhere: failure_reason, cctp_attestation_status, merchant_transfer_tx_hash,
 * received_amount (amount actually observed on-chain once verified).
 */
/** A status the payment entered and when: the first is `pending` at creation (an extension). */
export const PaymentStatusChange = z.object({ status: PaymentStatus, at: IsoTimestamp });
export type PaymentStatusChange = z.infer<typeof PaymentStatusChange>;

export const PaymentDetail = PaymentListItem.extend({
  /** null for cross-chain payments created without one */
  expected_amount: DecimalString.nullable(),
  destination_chain: BlockchainName.nullable(),
  bridge_provider: z.string().nullable(),
  updated_at: IsoTimestamp,
  failure_reason: z.string().nullable(),
  cctp_attestation_status: z.string().nullable(),
  merchant_transfer_tx_hash: z.string().nullable(),
  received_amount: DecimalString.nullable(),
  /** received_amount − amount once completed ("0.000000" when exact), else null (an extension) */
  surplus_amount: DecimalString.nullable(),
  /** cross-chain: amount burned − received_amount, once known, else null (an extension) */
  cctp_fee_amount: DecimalString.nullable(),
  /** every status the payment went through, oldest first, as recorded by each transition */
  status_history: z.array(PaymentStatusChange),
  /**
   * Every transfer reported for the payment, with its hash: the first, then each top-up (an
   * extension; see docs/api/extensions.md#top-ups)
   */
  transfers: z.array(PaymentTransfer),
});
export type PaymentDetail = z.infer<typeof PaymentDetail>;
export const PaymentDetailResponse = successEnvelope(PaymentDetail);

/** GET /payments/:id (jwt): the detail view plus every cross-chain (CCTP) field. */
export const MerchantPaymentDetail = PaymentDetail.extend({
  description: z.string().nullable(),
  checkout_session_id: z.string().nullable(),
  source_chain_id: ChainId,
  destination_chain_id: ChainId.nullable(),
  burn_tx_hash: z.string().nullable(),
  mint_tx_hash: z.string().nullable(),
  cctp_message_hash: z.string().nullable(),
  fee_quote: z.record(z.string(), z.unknown()).nullable(),
  completed_at: IsoTimestamp.nullable(),
});
export type MerchantPaymentDetail = z.infer<typeof MerchantPaymentDetail>;
export const MerchantPaymentDetailResponse = successEnvelope(MerchantPaymentDetail);
