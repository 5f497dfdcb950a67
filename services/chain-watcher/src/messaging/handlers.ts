import { EventTypes } from '@stablepay/contracts';
import type { EventHandlers } from '@stablepay/platform';
import type { WatcherContext } from '../domain/context.js';
import { acceptTransferRequest } from '../domain/transfers/requests.js';
import { trackTopUp } from '../domain/top-ups/track-top-up.js';
import { trackPayment } from '../domain/verification/track-payment.js';
import { assignPrimaryWallet } from '../domain/wallets/assign-wallet.js';

/** Every event the chain-watcher consumes, with the one domain operation it triggers. */
export const chainWatcherConsumers = (ctx: WatcherContext): EventHandlers => ({
  [EventTypes.MerchantCreated]: async (event, trx) => {
    await assignPrimaryWallet(ctx, trx, event.data);
  },
  [EventTypes.PaymentCreated]: (event, trx) => trackPayment(ctx, trx, event.data),
  [EventTypes.PaymentTopUpReported]: (event, trx) => trackTopUp(ctx, trx, event.data),
  // A command to move money: recorded here, sent later by the transfer sender.
  [EventTypes.TransferRequested]: async (event, trx) => {
    await acceptTransferRequest(ctx, trx, event.data);
  },
});
