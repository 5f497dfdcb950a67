import { defineService } from '@stablepay/platform';
import { loadNotifierConfig } from './config.js';
import { notifierMigrations } from './db/migrations.js';
import { createNotifierContext } from './domain/context.js';
import { repairSecretSpellings } from './domain/secret-spellings.js';
import { checkSecretKek } from './domain/secrets.js';
import { webhookRoutes } from './http/webhooks/routes.js';
import { invoicingAttachments, type AttachmentSource } from './mail/attachments.js';
import { createMailTransport, type MailTransport } from './mail/transport.js';
import { notifierConsumers } from './messaging/handlers.js';
import { systemResolver, type Resolver } from './ssrf/url-policy.js';
import { notifierWorkers } from './workers/index.js';

export interface NotifierOptions {
  /** How webhook host names are resolved (tests play DNS here); the system resolver by default. */
  resolve?: Resolver;
  /** Replaces the transport SMTP_URL or MAIL_DIR configure. */
  mailTransport?: MailTransport;
  /** Replaces the invoicing service (INVOICING_URL) as the source of attached invoice PDFs. */
  attachments?: AttachmentSource;
}

/**
 * Webhooks and e-mails from payment and refund events, the invoice e-mail with its PDF, and the
 * merchant's webhook management API. It publishes the merchant's changes to webhook endpoints (for
 * the audit log). Merchants' endpoints and the SMTP server are not readiness conditions: their
 * outages are retried, and must not take the API or the consumers out of rotation.
 */
export const notifierService = defineService({
  name: 'notifier',
  migrations: notifierMigrations,
  loadConfig: loadNotifierConfig,
  build: async ({ config, deps, eventsCommitted }, options: NotifierOptions) => {
    const keks = { current: config.WEBHOOK_SECRET_KEK, previous: config.WEBHOOK_SECRET_KEK_PREVIOUS };
    // Before the key check: a secret sealed under a misspelt id would fail it for the wrong reason.
    await repairSecretSpellings(deps.db, keks, deps.logger);
    await checkSecretKek(deps.db, keks);
    const transport = options.mailTransport ?? createMailTransport(config, deps.logger);
    // The context wakes the workers and the workers need the context: these run only once both exist.
    const context = createNotifierContext(config, deps, options.resolve ?? systemResolver, {
      deliveriesQueued: () => workers.delivery.wake(),
      retryDueIn: (ms) => workers.delivery.wakeIn(ms),
      emailsQueued: () => workers.mail.wake(),
      eventsCommitted,
      directDeliveries: {
        reserve: (endpointIds) => workers.delivery.reserve(endpointIds),
        handOver: (reserved, attempts, queued) => workers.delivery.handOver(reserved, attempts, queued),
        get leaseMs() {
          return config.WEBHOOK_LEASE_MS;
        },
      },
    });
    const attachments =
      options.attachments ??
      invoicingAttachments({
        baseUrl: config.INVOICING_URL,
        secret: config.INTERNAL_TOKEN_SECRET,
        timeoutMs: config.INVOICING_TIMEOUT_MS,
      });
    const workers = notifierWorkers(context, config, transport, attachments);
    return {
      routes: webhookRoutes(context),
      consumers: notifierConsumers(context),
      workers: workers.all,
      // The event handler itself hands its attempts to the delivery worker (or wakes it).
      afterConsume: () => context.emailsQueued(),
      // After the workers: nothing sends once they have stopped.
      close: async () => {
        transport.close();
        await context.sender.close();
      },
      context,
    };
  },
});
