import type { Knex } from 'knex';
import type { Logger, ServiceDeps } from '@stablepay/platform';
import type { NotifierConfig } from '../config.js';
import { SuccessBatch } from '../db/success-batch.js';
import { WebhookSender } from '../delivery/webhook-sender.js';
import { createNotifierMetrics, type NotifierMetrics } from '../metrics.js';
import { urlPolicy, type Resolver, type UrlPolicy } from '../ssrf/url-policy.js';
import { messageIdDomain } from './emails.js';
import type { RetrySchedule } from './retry-schedule.js';

/** The workers' doorbells: domain functions ring them after committing work for the workers. */
export interface NotifierWakeUps {
  /** New attempts were committed: wake the delivery worker. */
  deliveriesQueued: () => void;
  /** A retry falls due in `ms`: make sure the delivery worker looks then. */
  retryDueIn: (ms: number) => void;
  /** New e-mails were committed: wake the mail worker. */
  emailsQueued: () => void;
}

/** Everything the notifier's domain functions use, built once at start and passed explicitly. */
export interface NotifierContext extends NotifierWakeUps {
  db: Knex;
  logger: Logger;
  metrics: NotifierMetrics;
  /** WEBHOOK_SECRET_KEK */
  kek: Buffer;
  urlPolicy: UrlPolicy;
  resolve: Resolver;
  sender: WebhookSender;
  /** Writes successful attempts, many per statement. */
  successes: SuccessBatch;
  schedule: RetrySchedule;
  limits: { maxEndpoints: number; replayMaxEvents: number };
  mail: { from: string; messageIdDomain: string };
}

export const createNotifierContext = (
  config: NotifierConfig,
  deps: Pick<ServiceDeps, 'db' | 'logger' | 'metrics'>,
  resolve: Resolver,
  wakeUps: NotifierWakeUps,
): NotifierContext => {
  const policy = urlPolicy(config.ALLOW_INSECURE_WEBHOOKS);
  if (config.ALLOW_INSECURE_WEBHOOKS) {
    deps.logger.warn('ALLOW_INSECURE_WEBHOOKS is on: http:// and loopback webhook URLs are accepted');
  }
  return {
    db: deps.db,
    logger: deps.logger,
    metrics: createNotifierMetrics(deps.metrics),
    kek: config.WEBHOOK_SECRET_KEK,
    urlPolicy: policy,
    resolve,
    sender: new WebhookSender({
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      policy,
      resolve,
      extraCaPem: config.extraCaPem,
    }),
    successes: new SuccessBatch(deps.db),
    schedule: {
      delaysMs: config.WEBHOOK_RETRY_SCHEDULE,
      jitter: config.WEBHOOK_RETRY_JITTER,
      retryAfterMaxMs: config.WEBHOOK_RETRY_AFTER_MAX_MS,
    },
    limits: { maxEndpoints: config.WEBHOOK_MAX_ENDPOINTS, replayMaxEvents: config.WEBHOOK_REPLAY_MAX_EVENTS },
    mail: { from: config.MAIL_FROM, messageIdDomain: messageIdDomain(config.MAIL_FROM) },
    ...wakeUps,
  };
};
