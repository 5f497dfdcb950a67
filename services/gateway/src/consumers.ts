import { EventTypes } from '@stablepay/contracts';
import type { EventHandlers } from '@stablepay/platform';
import { moneyMovementAuditConsumers } from './audit/money-movement-audit.js';
import { webhookEndpointAuditConsumers } from './audit/webhook-endpoint-audit.js';
import { withdrawalAddressAuditConsumers } from './audit/withdrawal-address-audit.js';
import { onWalletAssigned } from './wallets/wallet-assigned.js';

/** Every event the gateway consumes, with its handler: one list, registered at start. */
export const gatewayConsumers: EventHandlers = {
  [EventTypes.WalletAssigned]: onWalletAssigned,
  ...moneyMovementAuditConsumers,
  ...webhookEndpointAuditConsumers,
  ...withdrawalAddressAuditConsumers,
};
