import type { RequestHandler } from 'express';
import {
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_NAMES,
  WebhookDeliveryParams,
  WebhookIdParams,
  WebhookLogsQuery,
  WebhookReplayBody,
  type WebhookEventInfo,
} from '@stablepay/contracts';
import { merchantOf, ok, parseBody, parseParams, parseQuery } from '@stablepay/platform';
import type { NotifierContext } from '../../domain/context.js';
import { deliveryLogs, redeliver, replay, sendTestEvent } from '../../domain/deliveries.js';

type Route = (ctx: NotifierContext) => RequestHandler;

/** GET /merchant-webhooks/api/events */
export const eventsRoute: RequestHandler = (_req, res) => {
  const events: WebhookEventInfo[] = WEBHOOK_EVENT_NAMES.map((name) => ({
    name,
    description: WEBHOOK_EVENT_DESCRIPTIONS[name],
  }));
  ok(res, events);
};

/** POST /merchant-webhooks/api/:id/test: sends now and answers with the outcome. */
export const testRoute: Route = (ctx) => async (req, res) => {
  const { merchantId } = merchantOf(res);
  const { id } = parseParams(WebhookIdParams, req);
  ok(res, await sendTestEvent(ctx, merchantId, id));
};

/** GET /merchant-webhooks/api/:id/logs?limit= (default 20, max 100), newest first */
export const logsRoute: Route = (ctx) => async (req, res) => {
  const { merchantId } = merchantOf(res);
  const { id } = parseParams(WebhookIdParams, req);
  const { limit } = parseQuery(WebhookLogsQuery, req);
  ok(res, { logs: await deliveryLogs(ctx, merchantId, id, limit) });
};

/** POST /merchant-webhooks/api/:id/deliveries/:deliveryId/redeliver: 202 */
export const redeliverRoute: Route = (ctx) => async (req, res) => {
  const { merchantId } = merchantOf(res);
  const { id, deliveryId } = parseParams(WebhookDeliveryParams, req);
  ok(res, await redeliver(ctx, merchantId, id, deliveryId), 202);
};

/** POST /merchant-webhooks/api/:id/replay {since, events?}: 202 */
export const replayRoute: Route = (ctx) => async (req, res) => {
  const { merchantId } = merchantOf(res);
  const { id } = parseParams(WebhookIdParams, req);
  const body = parseBody(WebhookReplayBody, req);
  ok(res, await replay(ctx, merchantId, id, body), 202);
};
