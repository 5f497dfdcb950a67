import { EventTypes } from '@stablepay/contracts';
import type { EventHandler, EventHandlers } from '@stablepay/platform';
import { upsertMerchantWallet } from './wallets-repo.js';
import { onRefundCancelled, onRefundCreated, onWithdrawalRequested } from '../audit/money-movement-audit.js';
import { webhookEndpointAuditConsumers } from '../audit/webhook-endpoint-audit.js';
import { withdrawalAddressAuditConsumers } from '../audit/withdrawal-address-audit.js';

/** Keeps the projection behind GET /merchants/:id/wallet (the chain-watcher owns the wallet). */
export const onWalletAssigned: EventHandler<typeof EventTypes.WalletAssigned> = async (event, trx) => {
  const { data } = event;
  await upsertMerchantWallet(trx, {
    merchant_id: data.merchantId,
    wallet_id: data.walletId,
    address: data.address,
    blockchain: data.blockchain,
    chain_id: data.chainId,
    assigned_at: new Date(event.occurredAt),
    event_id: event.id,
  });
};

/** Every event the gateway consumes, with its handler: one list, registered at start. */
export const gatewayConsumers: EventHandlers = {
  [EventTypes.WalletAssigned]: onWalletAssigned,
  [EventTypes.RefundCreated]: onRefundCreated,
  [EventTypes.RefundCancelled]: onRefundCancelled,
  [EventTypes.WithdrawalRequested]: onWithdrawalRequested,
  ...webhookEndpointAuditConsumers,
  ...withdrawalAddressAuditConsumers,
};
