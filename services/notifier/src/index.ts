export {
  DEFAULT_MAIL_RETRY_SCHEDULE,
  DEFAULT_WEBHOOK_RETRY_SCHEDULE,
  loadNotifierConfig,
  notifierConfigSchema,
  parseSecretKek,
  type NotifierConfig,
  type NotifierEnv,
} from './config.js';
export { notifierService, type NotifierOptions } from './service.js';
export { notifierMigrations } from './migrations.js';
export type { NotifierContext } from './context.js';
export { signWebhook } from './webhooks/signature.js';
export { SecretUnavailableError } from './webhooks/secrets.js';
export { blockedAddressReason, type AddressPolicy } from './delivery/ssrf/addresses.js';
export {
  UrlRejected,
  checkWebhookUrl,
  systemResolver,
  urlPolicy,
  type ResolvedAddress,
  type Resolver,
  type UrlPolicy,
} from './delivery/ssrf/url-policy.js';
export { createMailTransport, type MailMessage, type MailTransport } from './mail/transport.js';
export type { NotifierMetrics } from './metrics.js';
