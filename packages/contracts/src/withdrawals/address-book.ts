/**
 * The withdrawal address book: our extension. Withdrawals go only to an address on it whose hold has
 * passed. Served by the invoicing service under /withdrawal-addresses, to the dashboard only; adding
 * and removing need a step-up (see RouteSpec.stepUp).
 *
 * An entry carries no chain: an EVM address is the same on every EVM chain, and a merchant's
 * withdrawals always leave from its one wallet chain.
 */
import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { EvmAddress, IsoTimestamp, Uuid } from '../shared/scalars.js';

/** on_hold: added, not usable before `usable_from`; active: withdrawals may go there; removed: never again. */
export const WithdrawalAddressStatus = z.enum(['on_hold', 'active', 'removed']);

export const WithdrawalAddress = z.object({
  id: Uuid,
  /** EIP-55 checksummed */
  address: EvmAddress,
  label: z.string(),
  status: WithdrawalAddressStatus,
  created_at: IsoTimestamp,
  /** created_at + the hold (WITHDRAWAL_ADDRESS_HOLD): the first moment a withdrawal may go there */
  usable_from: IsoTimestamp,
  removed_at: IsoTimestamp.nullable(),
});
export type WithdrawalAddress = z.infer<typeof WithdrawalAddress>;

export const WITHDRAWAL_ADDRESS_LABEL_MAX = 100;

/**
 * POST /withdrawal-addresses. An all-lower- or all-upper-case address is accepted as it is; a
 * mixed-case one must carry a valid EIP-55 checksum (a mistyped character is caught).
 */
export const AddWithdrawalAddressBody = z.object({
  address: EvmAddress,
  /** one line: it goes into e-mail subjects and the audit log */
  label: z
    .string()
    .trim()
    .min(1)
    .max(WITHDRAWAL_ADDRESS_LABEL_MAX)
    .regex(/^[^\p{Cc}]*$/u, 'Must be one line, without control characters'),
});
export type AddWithdrawalAddressBody = z.infer<typeof AddWithdrawalAddressBody>;

export const WithdrawalAddressIdParams = z.object({ id: Uuid });

/** Entries on the book (on hold or active), oldest first; removed entries are left out. */
export const WithdrawalAddressList = z.object({ addresses: z.array(WithdrawalAddress) });

export const WithdrawalAddressListResponse = successEnvelope(WithdrawalAddressList);
export type WithdrawalAddressListResponse = z.infer<typeof WithdrawalAddressListResponse>;
export const WithdrawalAddressResponse = successEnvelope(WithdrawalAddress);
export type WithdrawalAddressResponse = z.infer<typeof WithdrawalAddressResponse>;

/** The `details[].code` of a withdrawal refused for its destination (422). */
export const WithdrawalDestinationRefusal = {
  /** not on the address book, or removed from it */
  NotApproved: 'destination_not_approved',
  /** on the book, still in its hold; the detail's message names `usable_from` */
  OnHold: 'destination_on_hold',
} as const;
