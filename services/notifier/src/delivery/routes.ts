import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_NAMES, type WebhookEventInfo } from '@stablepay/contracts';
import { ok, type HandlerOf } from '@stablepay/platform';
import type { NotifierContext } from '../context.js';
import { deliveryLogs, redeliver, replay, sendTestEvent } from './deliveries.js';

const EVENTS: WebhookEventInfo[] = WEBHOOK_EVENT_NAMES.map((name) => ({
  name,
  description: WEBHOOK_EVENT_DESCRIPTIONS[name],
}));

/**
 * What is sent: the subscribable events, the test send, the log, redelivery and replay. Each
 * handler serves the API-key route and its dashboard twin (bearer token, same path without /api).
 */
export const deliveryRoutes = (ctx: NotifierContext) => {
  const events: HandlerOf<'listWebhookEvents'> & HandlerOf<'listWebhookEventsDashboard'> = ({ res }) => {
    ok(res, EVENTS);
  };

  /** Sends now and answers with the outcome. */
  const test: HandlerOf<'testWebhook'> & HandlerOf<'testWebhookDashboard'> = async ({
    merchant,
    params,
    res,
  }) => {
    ok(res, await sendTestEvent(ctx, merchant.merchantId, params.id));
  };

  /** Newest first; `limit` defaults to 20, at most 100. */
  const logs: HandlerOf<'getWebhookLogs'> & HandlerOf<'getWebhookLogsDashboard'> = async ({
    merchant,
    params,
    query,
    res,
  }) => {
    ok(res, { logs: await deliveryLogs(ctx, merchant.merchantId, params.id, query.limit) });
  };

  const redeliverOne: HandlerOf<'redeliverWebhook'> & HandlerOf<'redeliverWebhookDashboard'> = async ({
    merchant,
    params,
    res,
  }) => {
    ok(res, await redeliver(ctx, merchant.merchantId, params.id, params.deliveryId), 202);
  };

  const replaySince: HandlerOf<'replayWebhooks'> & HandlerOf<'replayWebhooksDashboard'> = async ({
    merchant,
    params,
    body,
    res,
  }) => {
    ok(res, await replay(ctx, merchant.merchantId, params.id, body), 202);
  };

  return {
    listWebhookEvents: events,
    testWebhook: test,
    getWebhookLogs: logs,
    redeliverWebhook: redeliverOne,
    replayWebhooks: replaySince,
  };
};
