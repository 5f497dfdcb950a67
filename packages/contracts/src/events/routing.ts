import type { TransferPurpose } from '../transfers/events.js';
import { type EventType, EventTypes } from './event-types.js';

/**
 * Transfer outcomes are addressed to the requester that asked for the transfer: the routing key is
 * `<type>.<purpose>` (`transfer.confirmed.refund`), so refunds never sees a withdrawal's outcome and
 * a new kind of transfer needs no change in the services that already request transfers.
 */
export const ADDRESSED_EVENT_TYPES: readonly EventType[] = [
  EventTypes.TransferSubmitted,
  EventTypes.TransferConfirmed,
  EventTypes.TransferFailed,
];

const isAddressed = (type: string): boolean => (ADDRESSED_EVENT_TYPES as readonly string[]).includes(type);

/** The RabbitMQ routing key of an event: its type, or `<type>.<purpose>` for addressed events. */
export function eventRoutingKey(event: { type: string; data?: unknown }): string {
  if (!isAddressed(event.type)) return event.type;
  const purpose = (event.data as { purpose?: unknown } | undefined)?.purpose;
  return typeof purpose === 'string' ? `${event.type}.${purpose}` : event.type;
}

/** The binding a consumer needs for one event type; addressed types bind only its own purpose. */
export function eventBinding(type: EventType, addressedAs?: TransferPurpose): string {
  if (!isAddressed(type)) return type;
  if (!addressedAs)
    throw new Error(`${type} is addressed to a requester: say which purpose this consumer is`);
  return `${type}.${addressedAs}`;
}
