import { EventTypes } from '@stablepay/contracts';
import type { EventHandlers } from '@stablepay/platform';
import { applyMerchantSettings, assignWallet, upsertMerchant } from './merchants-repo.js';

/**
 * Keeps the merchant projection: who may be paid, in which currencies, to which wallet, and what the
 * checkout page shows of them. Each handler runs in the transaction that records the message in the
 * inbox.
 */
export const merchantProjectionHandlers = (): EventHandlers => ({
  [EventTypes.MerchantCreated]: async (event, trx) => {
    await upsertMerchant(trx, event.data);
  },
  [EventTypes.WalletAssigned]: async (event, trx) => {
    // The wallet is assigned in reaction to merchant.created, but the two come from different
    // producers; if the wallet overtakes the merchant, failing here retries it after a delay.
    if (!(await assignWallet(trx, event.data))) {
      throw new Error(`merchant ${event.data.merchantId} is not projected yet`);
    }
  },
  [EventTypes.MerchantSettingsUpdated]: async (event, trx) => {
    // Settings are changed after the merchant is created; one that overtakes it waits the same way.
    if (!(await applyMerchantSettings(trx, event.data))) {
      throw new Error(`merchant ${event.data.merchantId} is not projected yet`);
    }
  },
});
