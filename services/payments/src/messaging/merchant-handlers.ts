import { EventTypes, MerchantCreatedData, WalletAssignedData } from '@stablepay/contracts';
import type { TransactionalHandler } from '@stablepay/platform';
import { assignWallet, upsertMerchant } from '../db/merchants-repo.js';

/**
 * Keeps the merchant projection: who may be paid, in which currencies, to which wallet. Each
 * handler runs in the transaction that records the message in the inbox.
 */
export const merchantProjectionHandlers = (): Record<string, TransactionalHandler> => ({
  [EventTypes.MerchantCreated]: async (event, trx) => {
    await upsertMerchant(trx, MerchantCreatedData.parse(event.data));
  },
  [EventTypes.WalletAssigned]: async (event, trx) => {
    const wallet = WalletAssignedData.parse(event.data);
    // The wallet is assigned in reaction to merchant.created, but the two come from different
    // producers; if the wallet overtakes the merchant, failing here retries it after a delay.
    if (!(await assignWallet(trx, wallet))) {
      throw new Error(`merchant ${wallet.merchantId} is not projected yet`);
    }
  },
});
