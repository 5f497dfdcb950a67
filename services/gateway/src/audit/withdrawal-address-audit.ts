import { EventTypes } from '@stablepay/contracts';
import type { EventHandler, EventHandlers } from '@stablepay/platform';
import { appendAudit } from './audit-log-repo.js';

/**
 * Changes to the withdrawal address book, announced by the invoicing service that keeps it, recorded
 * as done by the dashboard user who asked, with how they proved it was them. Each event is handled
 * once (the platform's inbox), so each change has one entry.
 */
const onAddressAdded: EventHandler<typeof EventTypes.WithdrawalAddressAdded> = async (event, trx) => {
  const { data } = event;
  await appendAudit(trx, {
    action: 'withdrawal_address.added',
    merchantId: data.merchantId,
    userId: data.userId,
    requestId: event.correlationId,
    details: {
      addressId: data.addressId,
      address: data.address,
      label: data.label,
      usableFrom: data.usableFrom,
      stepUp: data.stepUp,
    },
  });
};

const onAddressRemoved: EventHandler<typeof EventTypes.WithdrawalAddressRemoved> = async (event, trx) => {
  const { data } = event;
  await appendAudit(trx, {
    action: 'withdrawal_address.removed',
    merchantId: data.merchantId,
    userId: data.userId,
    requestId: event.correlationId,
    details: { addressId: data.addressId, address: data.address, label: data.label, stepUp: data.stepUp },
  });
};

export const withdrawalAddressAuditConsumers: EventHandlers = {
  [EventTypes.WithdrawalAddressAdded]: onAddressAdded,
  [EventTypes.WithdrawalAddressRemoved]: onAddressRemoved,
};
