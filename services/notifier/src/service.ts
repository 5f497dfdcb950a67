import {
  createHttpApp,
  migrate,
  requireInternalToken,
  startService,
  subscribeEvents,
  type HttpApp,
  type RunningService,
  type ServiceDeps,
  type Worker,
  dependencyChecks,
} from '@stablepay/platform';
import type { NotifierConfig } from './config.js';
import { ENDPOINTS, notifierMigrations } from './db/migrations.js';
import { SuccessBatch } from './db/success-batch.js';
import { WebhookSender } from './delivery/webhook-sender.js';
import type { NotifierContext } from './domain/context.js';
import { messageIdDomain } from './domain/emails.js';
import { openSecret } from './domain/secrets.js';
import { webhooksRouter } from './http/webhooks/router.js';
import { createMailTransport, type MailTransport } from './mail/transport.js';
import { notifierHandlers } from './messaging/handlers.js';
import { createNotifierMetrics } from './metrics.js';
import { systemResolver, urlPolicy, type Resolver } from './ssrf/url-policy.js';
import { DeliveryWorker } from './workers/delivery-worker.js';
import { mailWorker } from './workers/mail-worker.js';
import { retentionWorker } from './workers/retention.js';

export const SERVICE_NAME = 'notifier';

export interface NotifierService {
  http: HttpApp;
  workers: Worker[];
  subscribe: () => Promise<void>;
  /** The wiring, for benchmarks and tests that drive the domain directly. */
  context: NotifierContext;
}

export interface BuildNotifierOptions {
  config: NotifierConfig;
  deps: ServiceDeps;
  /** How webhook host names are resolved (tests play DNS here); the system resolver by default. */
  resolve?: Resolver;
  /** Replaces the transport SMTP_URL or MAIL_DIR configure. */
  mailTransport?: MailTransport;
}

/**
 * A KEK that cannot open the stored secrets stops the service here, instead of every delivery
 * failing later with a signature nobody can produce.
 */
const checkSecretKek = async (ctx: Pick<NotifierContext, 'db' | 'kek'>): Promise<void> => {
  const row = (await ctx.db(ENDPOINTS).first('id', 'secret_sealed')) as
    { id: string; secret_sealed: string } | undefined;
  if (row) openSecret(row.secret_sealed, ctx.kek, row.id);
};

/** Migrates the database, checks the KEK, then wires the HTTP app, the workers and the subscriptions. */
export async function buildNotifierService(opts: BuildNotifierOptions): Promise<NotifierService> {
  const { config, deps } = opts;
  const { db, bus, logger } = deps;
  await migrate(db, config.DATABASE_SCHEMA, notifierMigrations);
  await checkSecretKek({ db, kek: config.WEBHOOK_SECRET_KEK });
  if (config.ALLOW_INSECURE_WEBHOOKS) {
    logger.warn('ALLOW_INSECURE_WEBHOOKS is on: http:// and loopback webhook URLs are accepted');
  }

  const policy = urlPolicy(config.ALLOW_INSECURE_WEBHOOKS);
  const resolve = opts.resolve ?? systemResolver;
  const sender = new WebhookSender({
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    policy,
    resolve,
    extraCaPem: config.extraCaPem,
  });
  const transport =
    opts.mailTransport ??
    createMailTransport({
      smtpUrl: config.SMTP_URL,
      dir: config.MAIL_DIR,
      timeoutMs: config.MAIL_TIMEOUT_MS,
    });
  if (transport.kind === 'files')
    logger.info('no SMTP_URL: e-mails are written as .eml files', { dir: config.MAIL_DIR });

  // The workers need the context and the context wakes the workers: the closures below run only
  // after both exist.
  const ctx: NotifierContext = {
    db,
    logger,
    metrics: createNotifierMetrics(deps.metrics),
    kek: config.WEBHOOK_SECRET_KEK,
    urlPolicy: policy,
    resolve,
    sender,
    successes: new SuccessBatch(db),
    schedule: {
      delaysMs: config.WEBHOOK_RETRY_SCHEDULE,
      jitter: config.WEBHOOK_RETRY_JITTER,
      retryAfterMaxMs: config.WEBHOOK_RETRY_AFTER_MAX_MS,
    },
    limits: { maxEndpoints: config.WEBHOOK_MAX_ENDPOINTS, replayMaxEvents: config.WEBHOOK_REPLAY_MAX_EVENTS },
    mail: { from: config.MAIL_FROM, messageIdDomain: messageIdDomain(config.MAIL_FROM) },
    deliveriesQueued: () => delivery.wake(),
    retryDueIn: (ms) => delivery.wakeIn(ms),
    emailsQueued: () => mail.wake(),
  };
  const delivery = new DeliveryWorker(ctx, {
    concurrency: config.WEBHOOK_CONCURRENCY,
    perEndpoint: config.WEBHOOK_ENDPOINT_CONCURRENCY,
    leaseMs: config.WEBHOOK_LEASE_MS,
    pollMs: config.WEBHOOK_POLL_MS,
  });
  const mail = mailWorker({
    db,
    transport,
    from: config.MAIL_FROM,
    logger,
    metrics: ctx.metrics,
    pollMs: config.MAIL_POLL_MS,
    leaseMs: config.MAIL_LEASE_MS,
    retryDelaysMs: config.MAIL_RETRY_SCHEDULE,
  });

  const http = createHttpApp({
    service: SERVICE_NAME,
    logger,
    metrics: deps.metrics,
    // Merchants' endpoints and the SMTP server are not readiness conditions: their outages are
    // retried, and must not take the management API or the consumers out of rotation.
    readiness: dependencyChecks(deps),
  });
  http.app.use(requireInternalToken(config.INTERNAL_TOKEN_SECRET));
  http.app.use(webhooksRouter(ctx));

  const workers: Worker[] = [
    delivery,
    mail,
    retentionWorker({ db, logger, retentionDays: config.WEBHOOK_RETENTION_DAYS }),
    {
      // Last: nothing sends once the workers above have stopped.
      name: 'http-and-smtp-clients',
      start: () => undefined,
      stop: async () => {
        transport.close();
        await sender.close();
      },
    },
  ];
  const subscribe = () =>
    subscribeEvents({
      bus,
      db,
      consumer: SERVICE_NAME,
      handlers: notifierHandlers(ctx),
      logger,
      metrics: deps.metrics,
      afterCommit: () => {
        ctx.deliveriesQueued();
        ctx.emailsQueued();
      },
    });
  return { http, workers, subscribe, context: ctx };
}

export async function startNotifierService(opts: {
  config: NotifierConfig;
  deps: ServiceDeps;
  port?: number;
  host?: string;
  /** false when a stack shares the bus and the database with other services */
  ownsConnections?: boolean;
  resolve?: Resolver;
  mailTransport?: MailTransport;
}): Promise<RunningService> {
  const { config, deps } = opts;
  const service = await buildNotifierService({
    config,
    deps,
    resolve: opts.resolve,
    mailTransport: opts.mailTransport,
  });
  return startService({
    name: SERVICE_NAME,
    deps,
    http: service.http,
    port: opts.port ?? config.PORT,
    host: opts.host ?? config.HOST,
    workers: service.workers,
    subscribe: service.subscribe,
    ownsConnections: opts.ownsConnections,
    graceMs: config.SHUTDOWN_GRACE_MS,
  });
}
