import type { LoopWorker, Worker } from '@stablepay/platform';
import type { NotifierConfig } from './config.js';
import type { DirectDeliveries, NotifierContext, NotifierWakeUps } from './context.js';
import type { AttachmentSource } from './mail/attachments.js';
import type { MailTransport } from './mail/transport.js';
import { DeliveryWorker } from './delivery/delivery-worker.js';
import { mailWorker } from './mail/mail-worker.js';
import { resealSecretsWorker } from './webhooks/reseal-secrets.js';
import { retentionWorker } from './delivery/retention.js';

export interface NotifierWorkers {
  delivery: DeliveryWorker;
  mail: LoopWorker;
  /** In start order; stopped in the same order. */
  all: Worker[];
}

export const notifierWorkers = (
  ctx: NotifierContext,
  config: NotifierConfig,
  transport: MailTransport,
  attachments: AttachmentSource,
): NotifierWorkers => {
  const delivery = new DeliveryWorker(ctx, {
    concurrency: config.WEBHOOK_CONCURRENCY,
    perEndpoint: config.WEBHOOK_ENDPOINT_CONCURRENCY,
    leaseMs: config.WEBHOOK_LEASE_MS,
    pollMs: config.WEBHOOK_POLL_MS,
  });
  const mail = mailWorker({
    db: ctx.db,
    transport,
    from: config.MAIL_FROM,
    logger: ctx.logger,
    metrics: ctx.metrics,
    pollMs: config.MAIL_POLL_MS,
    leaseMs: config.MAIL_LEASE_MS,
    retryDelaysMs: config.MAIL_RETRY_SCHEDULE,
    attachments,
  });
  const retention = retentionWorker({
    db: ctx.db,
    logger: ctx.logger,
    retentionDays: config.WEBHOOK_RETENTION_DAYS,
  });
  const all: Worker[] = [delivery, mail, retention];
  // During a WEBHOOK_SECRET_KEK rotation only.
  if (config.WEBHOOK_SECRET_KEK_PREVIOUS) {
    all.push(
      resealSecretsWorker({
        db: ctx.db,
        keks: { current: config.WEBHOOK_SECRET_KEK, previous: config.WEBHOOK_SECRET_KEK_PREVIOUS },
        batchSize: config.WEBHOOK_SECRET_RESEAL_BATCH,
        intervalMs: config.WEBHOOK_SECRET_RESEAL_INTERVAL_MS,
        logger: ctx.logger,
        metrics: ctx.metrics,
      }),
    );
  }
  return { delivery, mail, all };
};

/**
 * The context's doorbells, for workers built after it (the workers need the context): each rings
 * the workers attached once both exist. Nothing rings them before the service starts.
 */
export const workerDoorbells = (leaseMs: number) => {
  let workers: NotifierWorkers | undefined;
  const attached = (): NotifierWorkers => {
    if (!workers) throw new Error('the notifier workers are not attached yet');
    return workers;
  };
  const wakeUps: NotifierWakeUps & { directDeliveries: DirectDeliveries } = {
    deliveriesQueued: () => attached().delivery.wake(),
    retryDueIn: (ms) => attached().delivery.wakeIn(ms),
    emailsQueued: () => attached().mail.wake(),
    directDeliveries: {
      reserve: (endpointIds) => attached().delivery.reserve(endpointIds),
      handOver: (reserved, attempts, queued) => attached().delivery.handOver(reserved, attempts, queued),
      leaseMs,
    },
  };
  return {
    wakeUps,
    attach: (built: NotifierWorkers): void => {
      workers = built;
    },
  };
};
