import { Counter, Gauge, Histogram } from 'prom-client';
import type { Metrics } from '@stablepay/platform';

/** The notifier's own series, registered on the service's registry (served at /metrics). */
export interface NotifierMetrics {
  /** one per HTTP attempt: outcome = succeeded | failed; status = HTTP status or "none" */
  attempts: Counter<'outcome' | 'status' | 'trigger'>;
  attemptDuration: Histogram<'outcome'>;
  /** event occurrence → the successful attempt, for deliveries triggered by the event itself */
  eventToDelivery: Histogram;
  inFlight: Gauge;
  endpointsDisabled: Counter;
  /** results written after the lease had passed to another replica (dropped) */
  lostLeases: Counter;
  emails: Counter<'template' | 'outcome'>;
}

export const createNotifierMetrics = (base: Metrics): NotifierMetrics => {
  const registers = [base.registry];
  return {
    attempts: new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome, HTTP status and trigger',
      labelNames: ['outcome', 'status', 'trigger'],
      registers,
    }),
    attemptDuration: new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Time until the receiver answered (or the attempt failed)',
      labelNames: ['outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    eventToDelivery: new Histogram({
      name: 'webhook_event_to_delivery_seconds',
      help: 'Time from the event to its successful delivery',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 300, 1800, 7200, 36000, 100000],
      registers,
    }),
    inFlight: new Gauge({
      name: 'webhook_attempts_in_flight',
      help: 'Webhook requests in flight on this replica',
      registers,
    }),
    endpointsDisabled: new Counter({
      name: 'webhook_endpoints_disabled_total',
      help: 'Endpoints disabled after consecutive failures',
      registers,
    }),
    lostLeases: new Counter({
      name: 'webhook_attempt_results_dropped_total',
      help: 'Attempt results dropped because another replica had taken the attempt over',
      registers,
    }),
    emails: new Counter({
      name: 'emails_total',
      help: 'E-mails by template and outcome (sent, retry, failed)',
      labelNames: ['template', 'outcome'],
      registers,
    }),
  };
};
