import { EventTypes, type IntegrationEvent } from '@stablepay/contracts';
import type { EventHandlers } from '@stablepay/platform';
import { auditedAs } from './event-audit.js';

type AddressEvent = IntegrationEvent<
  typeof EventTypes.WithdrawalAddressAdded | typeof EventTypes.WithdrawalAddressRemoved
>;

/** Who changed the book, and how they proved it was them. */
const addressEntry = ({ data, correlationId }: AddressEvent) => ({
  merchantId: data.merchantId,
  userId: data.userId,
  requestId: correlationId,
  details: { addressId: data.addressId, address: data.address, label: data.label, stepUp: data.stepUp },
});

/**
 * Changes to the withdrawal address book, announced by the invoicing service that keeps it, recorded
 * as done by the dashboard user who asked, with how they proved it was them.
 */
export const withdrawalAddressAuditConsumers: EventHandlers = {
  [EventTypes.WithdrawalAddressAdded]: auditedAs<typeof EventTypes.WithdrawalAddressAdded>(
    'withdrawal_address.added',
    (event) => {
      const entry = addressEntry(event);
      return { ...entry, details: { ...entry.details, usableFrom: event.data.usableFrom } };
    },
  ),
  [EventTypes.WithdrawalAddressRemoved]: auditedAs<typeof EventTypes.WithdrawalAddressRemoved>(
    'withdrawal_address.removed',
    addressEntry,
  ),
};
