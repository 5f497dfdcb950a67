import { EventTypes } from '@stablepay/contracts';
import type { EventHandlers } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { acceptAuthorization } from './accept.js';

/** A customer's signed authorization becomes a submission the gasless worker sends once. */
export const gaslessHandlers = (_ctx: WatcherContext): EventHandlers => ({
  [EventTypes.PaymentAuthorizationReceived]: (event, trx) => acceptAuthorization(trx, event.data),
});
