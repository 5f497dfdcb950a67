import { EventTypes } from '@stablepay/contracts';
import type { EventHandlers } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { acceptTransferRequest } from './requests.js';

export const transferHandlers = (ctx: WatcherContext): EventHandlers => ({
  // A command to move money: recorded here, sent later by the transfer sender.
  [EventTypes.TransferRequested]: async (event, trx) => {
    await acceptTransferRequest(ctx, trx, event.data);
  },
});
