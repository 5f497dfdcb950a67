import type { Knex } from 'knex';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Logger, Metrics } from '@stablepay/platform';
import { readWebhookBacklog, type WebhookBacklog } from './delivery/backlog-repo.js';

/**
 * Endpoints named in the per-endpoint series: the largest backlogs only, so a scrape stays the same
 * size however many endpoints merchants create.
 */
export const BACKLOG_TOP_ENDPOINTS = 20;

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
  emailSendDuration: Histogram<'outcome'>;
  /** endpoint secrets moved from WEBHOOK_SECRET_KEK_PREVIOUS to WEBHOOK_SECRET_KEK by this replica */
  secretsResealed: Counter;
  /** endpoint secrets the last complete scan found sealed under the previous key (or under neither) */
  secretsNotUnderKek: Gauge<'sealed_under'>;
}

type Registers = Metrics['registry'][];
type ReadBacklog = () => Promise<WebhookBacklog | undefined>;

/** The two totals, which keep their last value when a read fails. */
const overallGauges = (registers: Registers, backlog: ReadBacklog): void => {
  // Specs as objects with `name: '...'`: the monitoring test reads the exposed names from this file.
  const overall = ({
    name,
    help,
    pick,
  }: {
    name: string;
    help: string;
    pick: (b: WebhookBacklog) => number;
  }) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const b = await backlog();
        if (b) this.set(pick(b));
      },
    });
  overall({
    name: 'webhook_backlog_attempts',
    help: 'Webhook attempts due and not yet finished, all active endpoints',
    pick: (b) => b.due,
  });
  overall({
    name: 'webhook_backlog_oldest_seconds',
    help: 'Time since the oldest due webhook attempt became due (0 when none is)',
    pick: (b) => b.oldestSeconds,
  });
};

/** The endpoints with the largest backlogs, and the disabled endpoints by cause. */
const endpointGauges = (registers: Registers, backlog: ReadBacklog): void => {
  const perEndpoint = ({
    name,
    help,
    pick,
  }: {
    name: string;
    help: string;
    pick: (e: WebhookBacklog['endpoints'][number]) => number;
  }) =>
    new Gauge({
      name,
      help,
      labelNames: ['endpoint'],
      registers,
      async collect() {
        const b = await backlog();
        this.reset();
        for (const e of b?.endpoints ?? []) this.set({ endpoint: e.endpointId }, pick(e));
      },
    });
  perEndpoint({
    name: 'webhook_endpoint_backlog_attempts',
    help: `Due webhook attempts of the ${BACKLOG_TOP_ENDPOINTS} endpoints with the largest backlogs`,
    pick: (e) => e.due,
  });
  perEndpoint({
    name: 'webhook_endpoint_backlog_oldest_seconds',
    help: `Time since the oldest due attempt became due, for the same ${BACKLOG_TOP_ENDPOINTS} endpoints`,
    pick: (e) => e.oldestSeconds,
  });
  new Gauge({
    name: 'webhook_disabled_endpoints',
    help: 'Endpoints disabled now, by cause (failures: consecutive failed deliveries; merchant)',
    labelNames: ['cause'],
    registers,
    async collect() {
      const b = await backlog();
      this.reset();
      if (!b) return;
      this.set({ cause: 'failures' }, b.disabled.failures);
      this.set({ cause: 'merchant' }, b.disabled.merchant);
    },
  });
};

/**
 * The webhook backlog, read from the database at each scrape (every gauge of one scrape shares one
 * read). A failed read (database away) never fails the scrape: the per-endpoint and disabled series
 * are left out of it and the two totals keep their last value, as the outbox gauges do.
 */
const backlogGauges = (base: Metrics, db: Knex, logger?: Logger): void => {
  // The registry collects every metric of a scrape at once: the gauges share the read in flight.
  let inFlight: Promise<WebhookBacklog | undefined> | undefined;
  const backlog: ReadBacklog = () =>
    (inFlight ??= readWebhookBacklog(db, BACKLOG_TOP_ENDPOINTS)
      .catch((err: Error) => {
        logger?.warn('the webhook backlog could not be read for /metrics', { error: err.message });
        return undefined;
      })
      .finally(() => {
        inFlight = undefined;
      }));
  const registers = [base.registry];
  overallGauges(registers, backlog);
  endpointGauges(registers, backlog);
};

/** Series of webhook attempts and the endpoints they disable. */
const webhookSeries = (registers: Registers) => ({
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
});

/** Series of e-mails sent and of endpoint secrets re-sealed during a key rotation. */
const mailAndSecretSeries = (registers: Registers) => ({
  emails: new Counter({
    name: 'emails_total',
    help: 'E-mails by template and outcome (sent, retry, failed)',
    labelNames: ['template', 'outcome'],
    registers,
  }),
  emailSendDuration: new Histogram({
    name: 'email_send_duration_seconds',
    help: 'Time the mail transport (SMTP) took to accept or refuse a message, attachment fetch included',
    labelNames: ['outcome'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  }),
  secretsResealed: new Counter({
    name: 'webhook_secrets_resealed_total',
    help: 'Endpoint secrets re-sealed from WEBHOOK_SECRET_KEK_PREVIOUS under WEBHOOK_SECRET_KEK',
    registers,
  }),
  secretsNotUnderKek: new Gauge({
    name: 'webhook_secrets_not_under_kek',
    help: 'Endpoint secrets the last re-seal scan found not sealed under WEBHOOK_SECRET_KEK (sealed_under = previous | neither)',
    labelNames: ['sealed_under'],
    registers,
  }),
});

export const createNotifierMetrics = (base: Metrics, db?: Knex, logger?: Logger): NotifierMetrics => {
  const registers = [base.registry];
  if (db) backlogGauges(base, db, logger);
  return { ...webhookSeries(registers), ...mailAndSecretSeries(registers) };
};
