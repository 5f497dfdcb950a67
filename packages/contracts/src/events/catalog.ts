import type { z } from 'zod';
import { AccountEmailRequestedData, MerchantEmailConfirmedData } from '../accounts/events.js';
import {
  CctpAttestedData,
  CctpBurnVerifiedData,
  CctpFailedData,
  CctpMintedData,
  CctpTransferredData,
} from '../cctp/events.js';
import { CheckoutSessionCompletedData, CheckoutSessionExpiredData } from '../checkout/events.js';
import { ChainPaymentRelayedData, PaymentAuthorizationReceivedData } from '../gasless/events.js';
import { InvoiceIssuedData } from '../invoices/events.js';
import { MerchantCreatedData, MerchantSettingsUpdatedData } from '../merchants/events.js';
import { PaymentCompletedData, PaymentCreatedData, PaymentFailedData } from '../payments/events.js';
import { RefundEventData } from '../refunds/events.js';
import {
  ChainTopUpRejectedData,
  ChainTopUpVerifiedData,
  PaymentTopUpReportedData,
} from '../top-ups/events.js';
import {
  TransferConfirmedData,
  TransferFailedData,
  TransferRequestedData,
  TransferSubmittedData,
} from '../transfers/events.js';
import { ChainPaymentRejectedData, ChainPaymentVerifiedData } from '../verification/events.js';
import { WalletAssignedData } from '../wallets/events.js';
import { WebhookEndpointChangedData } from '../webhooks/events.js';
import {
  WithdrawalAddressAddedData,
  WithdrawalAddressRemovedData,
} from '../withdrawals/address-book-events.js';
import {
  WithdrawalCompletedData,
  WithdrawalFailedData,
  WithdrawalRequestedData,
} from '../withdrawals/events.js';
import { type EventType, EventTypes } from './event-types.js';

/**
 * type -> version -> schema of `data`. A changed meaning gets a new version here; consumers accept
 * the versions they know and dead-letter the rest.
 */
export const eventCatalog = {
  [EventTypes.MerchantCreated]: { 1: MerchantCreatedData },
  [EventTypes.MerchantEmailConfirmed]: { 1: MerchantEmailConfirmedData },
  [EventTypes.MerchantSettingsUpdated]: { 1: MerchantSettingsUpdatedData },
  [EventTypes.AccountEmailRequested]: { 1: AccountEmailRequestedData },
  [EventTypes.WalletAssigned]: { 1: WalletAssignedData },
  [EventTypes.PaymentCreated]: { 1: PaymentCreatedData },
  [EventTypes.PaymentCompleted]: { 1: PaymentCompletedData },
  [EventTypes.PaymentFailed]: { 1: PaymentFailedData },
  [EventTypes.PaymentTopUpReported]: { 1: PaymentTopUpReportedData },
  [EventTypes.PaymentAuthorizationReceived]: { 1: PaymentAuthorizationReceivedData },
  [EventTypes.CheckoutSessionCompleted]: { 1: CheckoutSessionCompletedData },
  [EventTypes.CheckoutSessionExpired]: { 1: CheckoutSessionExpiredData },
  [EventTypes.ChainPaymentVerified]: { 1: ChainPaymentVerifiedData },
  [EventTypes.ChainPaymentRejected]: { 1: ChainPaymentRejectedData },
  [EventTypes.ChainPaymentRelayed]: { 1: ChainPaymentRelayedData },
  [EventTypes.ChainTopUpVerified]: { 1: ChainTopUpVerifiedData },
  [EventTypes.ChainTopUpRejected]: { 1: ChainTopUpRejectedData },
  [EventTypes.ChainCctpBurnVerified]: { 1: CctpBurnVerifiedData },
  [EventTypes.ChainCctpAttested]: { 1: CctpAttestedData },
  [EventTypes.ChainCctpMinted]: { 1: CctpMintedData },
  [EventTypes.ChainCctpTransferred]: { 1: CctpTransferredData },
  [EventTypes.ChainCctpFailed]: { 1: CctpFailedData },
  [EventTypes.TransferRequested]: { 1: TransferRequestedData },
  [EventTypes.TransferSubmitted]: { 1: TransferSubmittedData },
  [EventTypes.TransferConfirmed]: { 1: TransferConfirmedData },
  [EventTypes.TransferFailed]: { 1: TransferFailedData },
  [EventTypes.RefundCreated]: { 1: RefundEventData },
  [EventTypes.RefundCompleted]: { 1: RefundEventData },
  [EventTypes.RefundFailed]: { 1: RefundEventData },
  [EventTypes.RefundCancelled]: { 1: RefundEventData },
  [EventTypes.WithdrawalRequested]: { 1: WithdrawalRequestedData },
  [EventTypes.WithdrawalCompleted]: { 1: WithdrawalCompletedData },
  [EventTypes.WithdrawalFailed]: { 1: WithdrawalFailedData },
  [EventTypes.InvoiceIssued]: { 1: InvoiceIssuedData },
  [EventTypes.WebhookEndpointCreated]: { 1: WebhookEndpointChangedData },
  [EventTypes.WebhookEndpointDeleted]: { 1: WebhookEndpointChangedData },
  [EventTypes.WebhookEndpointSecretRegenerated]: { 1: WebhookEndpointChangedData },
  [EventTypes.WithdrawalAddressAdded]: { 1: WithdrawalAddressAddedData },
  [EventTypes.WithdrawalAddressRemoved]: { 1: WithdrawalAddressRemovedData },
} as const satisfies Record<EventType, Record<number, z.ZodType>>;
export type EventCatalog = typeof eventCatalog;

/** Latest version of every event type; producers publish this one. */
export const CURRENT_EVENT_VERSION = 1;

/** Schema of `data` for one type (all known versions). */
export type EventData<T extends EventType> = {
  [V in keyof EventCatalog[T]]: EventCatalog[T][V] extends z.ZodType ? z.output<EventCatalog[T][V]> : never;
}[keyof EventCatalog[T]];

/** Input accepted for `data` when producing (before defaults/transforms). */
export type EventDataInput<T extends EventType> = {
  [V in keyof EventCatalog[T]]: EventCatalog[T][V] extends z.ZodType ? z.input<EventCatalog[T][V]> : never;
}[keyof EventCatalog[T]];

export function isKnownEventType(type: string): type is EventType {
  return Object.prototype.hasOwnProperty.call(eventCatalog, type);
}

export function eventDataSchema(type: string, version: number): z.ZodType | undefined {
  if (!isKnownEventType(type)) return undefined;
  const versions = eventCatalog[type] as Record<number, z.ZodType>;
  return Object.prototype.hasOwnProperty.call(versions, version) ? versions[version] : undefined;
}

export function knownVersions(type: EventType): number[] {
  return Object.keys(eventCatalog[type]).map(Number);
}
