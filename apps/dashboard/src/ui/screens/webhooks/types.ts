import type { ResponseOf } from '../../../api/operations.js';

/** The notifier's views, as the dashboard twins of `/merchant-webhooks/api/*` answer them. */
export type WebhookEndpoint = ResponseOf<'getWebhookDashboard'>;
export type WebhookEventInfo = ResponseOf<'listWebhookEventsDashboard'>[number];
export type EventName = WebhookEventInfo['name'];
/** `trigger` is sent by the notifier but not declared in the catalogue's delivery view yet. */
export type WebhookDelivery = ResponseOf<'getWebhookLogsDashboard'>['logs'][number] & {
  trigger?: 'event' | 'test' | 'redeliver' | 'replay';
};
export type WebhookTestResult = ResponseOf<'testWebhookDashboard'>;

/** The spec's limit: this many consecutive failures disable an endpoint. */
export const FAILURES_BEFORE_DISABLE = 10;
export const DESCRIPTION_MAX = 200;
