import { z } from 'zod';
import { EvmAddress, IsoTimestamp, Uuid } from '../shared/scalars.js';

/** How the dashboard user proved, at the gateway, that it was still them. */
export const StepUpMethod = z.enum(['mfa', 'recent_sign_in']);
export type StepUpMethod = z.infer<typeof StepUpMethod>;

const addressChange = z.object({
  merchantId: Uuid,
  addressId: Uuid,
  /** EIP-55 checksummed */
  address: EvmAddress,
  label: z.string(),
  /** the dashboard user who asked (address book changes are dashboard-only) */
  userId: Uuid,
  stepUp: StepUpMethod,
  usableFrom: IsoTimestamp,
});

/**
 * withdrawal_address.added / .removed: the merchant's withdrawal address book changed, announced by
 * the invoicing service for the audit log and the merchant's e-mail. Internal domain events, never
 * offered as webhooks.
 */
export const WithdrawalAddressAddedData = addressChange.extend({ addedAt: IsoTimestamp });
export type WithdrawalAddressAddedData = z.infer<typeof WithdrawalAddressAddedData>;
export const WithdrawalAddressRemovedData = addressChange.extend({ removedAt: IsoTimestamp });
export type WithdrawalAddressRemovedData = z.infer<typeof WithdrawalAddressRemovedData>;
