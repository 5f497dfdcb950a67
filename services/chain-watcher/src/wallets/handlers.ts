import { EventTypes } from '@stablepay/contracts';
import type { EventHandlers } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { assignPrimaryWallet } from './assign-wallet.js';

/** A new merchant gets its primary wallet. */
export const walletHandlers = (ctx: WatcherContext): EventHandlers => ({
  [EventTypes.MerchantCreated]: async (event, trx) => {
    await assignPrimaryWallet(ctx, trx, event.data);
  },
});
