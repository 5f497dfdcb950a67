import { defineService } from '@stablepay/platform';
import { loadNotifierConfig } from './config.js';
import { notifierMigrations } from './migrations.js';
import { createNotifierContext } from './context.js';
import { repairSecretSpellings } from './webhooks/secret-spellings.js';
import { checkSecretKek } from './webhooks/secrets.js';
import { webhookRoutes } from './routes.js';
import { invoicingAttachments, type AttachmentSource } from './mail/attachments.js';
import { createMailTransport, type MailTransport } from './mail/transport.js';
import { notifierConsumers } from './events/consumers.js';
import { systemResolver, type Resolver } from './delivery/ssrf/url-policy.js';
import { notifierWorkers, workerDoorbells } from './workers.js';

export interface NotifierOptions {
  /** How webhook host names are resolved (tests play DNS here); the system resolver by default. */
  resolve?: Resolver;
  /** Replaces the transport SMTP_URL or MAIL_DIR configure. */
  mailTransport?: MailTransport;
  /** Replaces the invoicing service (INVOICING_URL) as the source of attached invoice PDFs. */
  attachments?: AttachmentSource;
}

/**
 * Webhooks from payment, refund, checkout session, withdrawal and invoice events, e-mails from
 * payment and refund events, the invoice e-mail with its PDF, and the merchant's webhook management
 * API. It publishes the merchant's changes to webhook endpoints (for
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
    const attachments =
      options.attachments ??
      invoicingAttachments({
        baseUrl: config.INVOICING_URL,
        secret: config.INTERNAL_TOKEN_SECRET,
        timeoutMs: config.INVOICING_TIMEOUT_MS,
      });
    const doorbells = workerDoorbells(config.WEBHOOK_LEASE_MS);
    const context = createNotifierContext(
      config,
      deps,
      options.resolve ?? systemResolver,
      doorbells.wakeUps,
      eventsCommitted,
    );
    const workers = notifierWorkers(context, config, transport, attachments);
    doorbells.attach(workers);
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
