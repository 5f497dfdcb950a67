/** The notifier's views, as the dashboard twins of `/merchant-webhooks/api/*` answer them. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  is_active: boolean;
  failure_count: number;
  created_at: string;
}

export interface WebhookEventInfo {
  name: string;
  description: string;
}

export interface WebhookDelivery {
  id: string;
  event_id: string;
  event: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempt: number;
  response_status: number | null;
  response_time_ms: number | null;
  error: string | null;
  response_body_excerpt: string | null;
  payload: Record<string, unknown>;
  is_test: boolean;
  created_at: string;
  /** what made this attempt */
  trigger?: 'event' | 'test' | 'redeliver' | 'replay';
}

export interface WebhookTestResult {
  delivery_id: string;
  status_code: number | null;
  success: boolean;
  response_time_ms: number;
  error: string | null;
}

/** The spec's limit: this many consecutive failures disable an endpoint. */
export const FAILURES_BEFORE_DISABLE = 10;
export const DESCRIPTION_MAX = 200;

export const endpointPath = (id: string, rest = ''): string =>
  `/merchant-webhooks/${encodeURIComponent(id)}${rest}`;
