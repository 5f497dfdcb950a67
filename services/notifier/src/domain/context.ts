import type { Knex } from 'knex';
import type { Logger } from '@stablepay/platform';
import type { SuccessBatch } from '../db/success-batch.js';
import type { WebhookSender } from '../delivery/webhook-sender.js';
import type { NotifierMetrics } from '../metrics.js';
import type { Resolver, UrlPolicy } from '../ssrf/url-policy.js';
import type { RetrySchedule } from './retry-schedule.js';

/** Everything the notifier's domain functions use, built once at start and passed explicitly. */
export interface NotifierContext {
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
  /** New attempts were committed: wake the delivery worker. */
  deliveriesQueued: () => void;
  /** A retry falls due in `ms`: make sure the delivery worker looks then. */
  retryDueIn: (ms: number) => void;
  /** New e-mails were committed: wake the mail worker. */
  emailsQueued: () => void;
}
