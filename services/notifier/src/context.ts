import type { Knex } from 'knex';
import { wakingEventWriter, type EventWriter, type Logger, type ServiceDeps } from '@stablepay/platform';
import type { NotifierConfig } from './config.js';
import type { ClaimedAttempt } from './delivery/attempts-repo.js';
import { SuccessBatch } from './delivery/success-batch.js';
import { SigningKeys } from './webhooks/signing-keys.js';
import { WebhookSender } from './delivery/webhook-sender.js';
import { createNotifierMetrics, type NotifierMetrics } from './metrics.js';
import { urlPolicy, type Resolver, type UrlPolicy } from './delivery/ssrf/url-policy.js';
import { messageIdDomain } from './mail/message-ids.js';
import type { SecretKeks } from './webhooks/secrets.js';
import type { RetrySchedule } from './delivery/retry-schedule.js';

/** The workers' doorbells: domain functions ring them after committing work for the workers. */
export interface NotifierWakeUps {
  /** New attempts were committed: wake the delivery worker. */
  deliveriesQueued: () => void;
  /** A retry falls due in `ms`: make sure the delivery worker looks then. */
  retryDueIn: (ms: number) => void;
  /** New e-mails were committed: wake the mail worker. */
  emailsQueued: () => void;
}

/**
 * An attempt committed without a lease, due now, with what does not change until it is sent (the
 * endpoint's URL and secret are read when it is claimed).
 */
export type QueuedAttempt = Omit<ClaimedAttempt, 'url' | 'secretSealed' | 'leaseToken'>;

/**
 * A new event's first attempts, sent by this replica without a claim: the handler reserves room
 * in the delivery pool, creates the attempts of the endpoints it got room for already leased, and
 * hands them over once its transaction has ended (committed: the attempts; rolled back: none).
 */
export interface DirectDeliveries {
  /** The endpoints of `endpointIds` that get a slot now (none while older work waits unleased). */
  reserve(endpointIds: string[]): string[];
  /**
   * Ends a reservation: the committed, leased attempts start, unused room is given back, and the
   * attempts created without a lease (`queued`) are claimed by id as room frees up.
   */
  handOver(reserved: string[], attempts: ClaimedAttempt[], queued: QueuedAttempt[]): void;
  /** The lease those attempts are created with. */
  readonly leaseMs: number;
}

/** Everything the notifier's domain functions use, built once at start and passed explicitly. */
export interface NotifierContext extends NotifierWakeUps {
  db: Knex;
  logger: Logger;
  metrics: NotifierMetrics;
  /** WEBHOOK_SECRET_KEK, which seals */
  kek: Buffer;
  /** WEBHOOK_SECRET_KEK and WEBHOOK_SECRET_KEK_PREVIOUS, which open */
  keks: SecretKeks;
  urlPolicy: UrlPolicy;
  resolve: Resolver;
  sender: WebhookSender;
  /** The endpoints' HMAC keys, opened once per sealed secret. */
  signingKeys: SigningKeys;
  directDeliveries: DirectDeliveries;
  /** Writes successful attempts, many per statement. */
  successes: SuccessBatch;
  schedule: RetrySchedule;
  limits: { maxEndpoints: number; replayMaxEvents: number };
  mail: { from: string; messageIdDomain: string };
  /** INTERNAL_TOKEN_SECRET and, during a rotation, its previous value: they open sealed links. */
  internalSecrets: ReadonlyArray<string | undefined>;
  /** Writes an integration event in the caller's transaction; the outbox relay wakes once it commits. */
  writeEvent: EventWriter;
}

export const createNotifierContext = (
  config: NotifierConfig,
  deps: Pick<ServiceDeps, 'db' | 'logger' | 'metrics'>,
  resolve: Resolver,
  wakeUps: NotifierWakeUps & { directDeliveries: DirectDeliveries },
  /** the outbox relay's wake-up (`ServiceKit.eventsCommitted`) */
  eventsCommitted: () => void,
): NotifierContext => {
  const policy = urlPolicy(config.ALLOW_INSECURE_WEBHOOKS);
  const keks: SecretKeks = {
    current: config.WEBHOOK_SECRET_KEK,
    previous: config.WEBHOOK_SECRET_KEK_PREVIOUS,
  };
  if (config.ALLOW_INSECURE_WEBHOOKS) {
    deps.logger.warn('ALLOW_INSECURE_WEBHOOKS is on: http:// and loopback webhook URLs are accepted');
  }
  return {
    db: deps.db,
    logger: deps.logger,
    metrics: createNotifierMetrics(deps.metrics, deps.db, deps.logger),
    kek: config.WEBHOOK_SECRET_KEK,
    keks,
    internalSecrets: [config.INTERNAL_TOKEN_SECRET, config.INTERNAL_TOKEN_SECRET_PREVIOUS],
    urlPolicy: policy,
    resolve,
    sender: new WebhookSender({
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      policy,
      resolve,
      extraCaPem: config.extraCaPem,
    }),
    signingKeys: new SigningKeys(keks),
    successes: new SuccessBatch(deps.db),
    schedule: {
      delaysMs: config.WEBHOOK_RETRY_SCHEDULE,
      jitter: config.WEBHOOK_RETRY_JITTER,
      retryAfterMaxMs: config.WEBHOOK_RETRY_AFTER_MAX_MS,
    },
    limits: { maxEndpoints: config.WEBHOOK_MAX_ENDPOINTS, replayMaxEvents: config.WEBHOOK_REPLAY_MAX_EVENTS },
    mail: { from: config.MAIL_FROM, messageIdDomain: messageIdDomain(config.MAIL_FROM) },
    writeEvent: wakingEventWriter('notifier', eventsCommitted),
    ...wakeUps,
  };
};
