import { z } from 'zod';
import { claimedTransferFields } from '../payments/events.js';
import { IsoTimestamp, Uuid } from '../shared/scalars.js';
import { ChainPaymentRejectedData, verifiedTransferFields } from '../verification/events.js';

/*
 * Top-ups: a same-chain checkout payment that arrived short stays open until its session expires,
 * and the customer sends the rest from the same address in further transactions. Each one the
 * customer reports is a claim the chain-watcher checks against the chain, like the first transfer.
 */

/** A customer reported a top-up transaction for a payment awaiting one (payments → chain-watcher). */
export const PaymentTopUpReportedData = z.object({
  topUpId: Uuid,
  ...claimedTransferFields,
  reportedAt: IsoTimestamp,
});
export type PaymentTopUpReportedData = z.infer<typeof PaymentTopUpReportedData>;

/** The top-up transaction moved `receivedAmount` from the payer to the merchant wallet, deep enough. */
export const ChainTopUpVerifiedData = z.object({ topUpId: Uuid, ...verifiedTransferFields });
export type ChainTopUpVerifiedData = z.infer<typeof ChainTopUpVerifiedData>;

/** The top-up transaction did not pay the payment (same reasons as a payment's transaction). */
export const ChainTopUpRejectedData = z.object({
  topUpId: Uuid,
  ...ChainPaymentRejectedData.omit({ receivedAmount: true }).shape,
});
export type ChainTopUpRejectedData = z.infer<typeof ChainTopUpRejectedData>;
