import { EventTypes } from '@stablepay/contracts';
import type { EventHandler } from '@stablepay/platform';
import { upsertMerchantWallet } from './wallets-repo.js';

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
