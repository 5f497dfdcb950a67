import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_NAMES, type WebhookEventInfo } from '@stablepay/contracts';
import { ok, type RouteHandlers } from '@stablepay/platform';
import type { NotifierContext } from '../../domain/context.js';
import { deliveryLogs, redeliver, replay, sendTestEvent } from '../../domain/deliveries.js';

type DeliveryOperation =
  'listWebhookEvents' | 'testWebhook' | 'getWebhookLogs' | 'redeliverWebhook' | 'replayWebhooks';

const EVENTS: WebhookEventInfo[] = WEBHOOK_EVENT_NAMES.map((name) => ({
  name,
  description: WEBHOOK_EVENT_DESCRIPTIONS[name],
}));

/** What is sent: the subscribable events, the test send, the log, redelivery and replay. */
export const deliveryRoutes = (ctx: NotifierContext): Pick<RouteHandlers<'notifier'>, DeliveryOperation> => ({
  listWebhookEvents: ({ res }) => {
    ok(res, EVENTS);
  },

  /** Sends now and answers with the outcome. */
  testWebhook: async ({ merchant, params, res }) => {
    ok(res, await sendTestEvent(ctx, merchant.merchantId, params.id));
  },

  /** Newest first; `limit` defaults to 20, at most 100. */
  getWebhookLogs: async ({ merchant, params, query, res }) => {
    ok(res, { logs: await deliveryLogs(ctx, merchant.merchantId, params.id, query.limit) });
  },

  redeliverWebhook: async ({ merchant, params, res }) => {
    ok(res, await redeliver(ctx, merchant.merchantId, params.id, params.deliveryId), 202);
  },

  replayWebhooks: async ({ merchant, params, body, res }) => {
    ok(res, await replay(ctx, merchant.merchantId, params.id, body), 202);
  },
});
