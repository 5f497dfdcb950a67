import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { WEBHOOK_TIMEOUT_MS } from '@stablepay/contracts';
import { ConfigError, envBool, envInt, loadConfig, serviceConfigShape } from '@stablepay/platform';
import { parseDurationList } from './delivery/retry-schedule.js';

const millis = (min: number, fallback: number) => envInt.pipe(z.number().int().min(min)).default(fallback);
const count = (min: number, max: number, fallback: number) =>
  envInt.pipe(z.number().int().min(min).max(max)).default(fallback);

/**
 * The key-encryption key of the webhook secrets: exactly 32 bytes, as 64 hex digits (0x optional) or
 * base64/base64url. Anything else is refused, so a truncated key never silently weakens AES-256.
 */
export const parseSecretKek = (text: string): Buffer | undefined => {
  const trimmed = text.trim();
  const hex = trimmed.replace(/^0x/i, '');
  if (/^[0-9a-fA-F]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  if (/^[A-Za-z0-9+/_-]{42,43}={0,2}$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed, /[-_]/.test(trimmed) ? 'base64url' : 'base64');
    if (bytes.length === 32) return bytes;
  }
  return undefined;
};

const secretKek = z.string().transform((text, ctx) => {
  const key = parseSecretKek(text);
  if (!key) {
    ctx.addIssue({ code: 'custom', message: 'must be 32 bytes as 64 hex digits or base64' });
    return z.NEVER;
  }
  return key;
});

/** `0,5s,5m,30m,2h` (ms when no unit): the delay before each attempt, the first one included. */
const durationList = (minItems: number) =>
  z.string().transform((text, ctx) => {
    const list = parseDurationList(text);
    if (!list || list.length < minItems) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a comma list of at least ${minItems} durations such as 0,5s,5m,2h (ms without unit)`,
      });
      return z.NEVER;
    }
    return list;
  });

/** Svix's schedule: about 27.5 hours from the first attempt to the last. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '0,5s,5m,30m,2h,5h,10h,10h';
export const DEFAULT_MAIL_RETRY_SCHEDULE = '30s,2m,10m,30m,1h,3h,6h';

export const notifierConfigSchema = z.object({
  ...serviceConfigShape({ port: 8105, schema: 'notifier' }),
  /** Encrypts the endpoints' signing secrets at rest (AES-256-GCM); never logged, never stored. */
  WEBHOOK_SECRET_KEK: secretKek,
  /**
   * The KEK being rotated away from, set only during a rotation: secrets still sealed under it open,
   * and the worker re-seals them under WEBHOOK_SECRET_KEK. Drop it once none is left.
   */
  WEBHOOK_SECRET_KEK_PREVIOUS: secretKek.optional(),
  /** During a rotation: how often the worker looks for secrets still sealed under the previous key. */
  WEBHOOK_SECRET_RESEAL_INTERVAL_MS: millis(10, 60_000),
  /** Secrets re-sealed per transaction. */
  WEBHOOK_SECRET_RESEAL_BATCH: count(1, 10_000, 500),
  /** Lets http:// URLs and loopback addresses through: local development and tests only. */
  ALLOW_INSECURE_WEBHOOKS: envBool.default(false),
  /** A PEM file of extra trusted CAs for webhook TLS (self-signed test receivers); never in production. */
  WEBHOOK_EXTRA_CA_FILE: z.string().optional(),
  /** The receiver's answer window (the spec's 5 seconds). */
  WEBHOOK_TIMEOUT_MS: millis(50, WEBHOOK_TIMEOUT_MS),
  WEBHOOK_RETRY_SCHEDULE: durationList(1).default(parseDurationList(DEFAULT_WEBHOOK_RETRY_SCHEDULE)!),
  /** Each retry delay is scattered by up to ± this fraction. */
  WEBHOOK_RETRY_JITTER: z.coerce.number().min(0).max(0.5).default(0.2),
  /** Longest wait a receiver's Retry-After (429/503) can impose on the next attempt. */
  WEBHOOK_RETRY_AFTER_MAX_MS: millis(0, 3_600_000),
  /** Attempts in flight at once per replica. */
  WEBHOOK_CONCURRENCY: count(1, 1_000, 64),
  /** Attempts in flight at once per endpoint and replica, so one endpoint cannot take every slot. */
  WEBHOOK_ENDPOINT_CONCURRENCY: count(1, 100, 4),
  /** How often the delivery worker looks for due retries when nothing woke it. */
  WEBHOOK_POLL_MS: millis(10, 1_000),
  /** A claimed attempt belongs to its replica this long; after that another replica may retry it. */
  WEBHOOK_LEASE_MS: millis(100, 30_000),
  WEBHOOK_MAX_ENDPOINTS: count(1, 1_000, 20),
  /** Most deliveries one replay request may queue. */
  WEBHOOK_REPLAY_MAX_EVENTS: count(1, 100_000, 10_000),
  /** Events, deliveries and attempt logs older than this are deleted. */
  WEBHOOK_RETENTION_DAYS: count(31, 3_650, 45),
  /** SMTP server (`smtp://user:pass@host:587`, `smtps://…`, options as query; pooled unless `?pool=false`); .eml files when unset. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('StablePay <no-reply@stablepay.local>'),
  /** Where messages are written as .eml files when SMTP_URL is not set. */
  MAIL_DIR: z.string().default('var/mail'),
  MAIL_POLL_MS: millis(10, 1_000),
  MAIL_RETRY_SCHEDULE: durationList(1).default(parseDurationList(DEFAULT_MAIL_RETRY_SCHEDULE)!),
  MAIL_LEASE_MS: millis(1_000, 120_000),
  MAIL_TIMEOUT_MS: millis(100, 30_000),
  /** The invoicing service, whose internal route hands out the invoice PDFs attached to e-mails. */
  INVOICING_URL: z.string().url().default('http://127.0.0.1:8104'),
  INVOICING_TIMEOUT_MS: millis(100, 10_000),
});

export type NotifierEnv = z.infer<typeof notifierConfigSchema>;

/** The validated variables plus the extra CA they name, read once at start. */
export type NotifierConfig = NotifierEnv & { extraCaPem?: string };

/** Rules across variables: production never relaxes the webhook policy, and a lease outlives a request. */
const crossFieldProblems = (env: NotifierEnv): string[] => {
  const problems: string[] = [];
  if (env.NODE_ENV === 'production' && env.ALLOW_INSECURE_WEBHOOKS) {
    problems.push('ALLOW_INSECURE_WEBHOOKS: must not be true in production');
  }
  if (env.NODE_ENV === 'production' && env.WEBHOOK_EXTRA_CA_FILE) {
    problems.push('WEBHOOK_EXTRA_CA_FILE: only for tests and local development, not in production');
  }
  // A claimed attempt may wait for a slot for up to one timeout, then take up to another.
  const minLease = 2 * env.WEBHOOK_TIMEOUT_MS + 1_000;
  if (env.WEBHOOK_LEASE_MS < minLease) {
    problems.push(
      `WEBHOOK_LEASE_MS: must be at least 2 × WEBHOOK_TIMEOUT_MS + 1000 (${minLease}), or a live attempt could be taken over`,
    );
  }
  // connect, greeting and the transfer each have MAIL_TIMEOUT_MS; the lease must outlast all three.
  if (env.MAIL_LEASE_MS < env.MAIL_TIMEOUT_MS * 4) {
    problems.push(`MAIL_LEASE_MS: must be at least 4 × MAIL_TIMEOUT_MS (${env.MAIL_TIMEOUT_MS * 4})`);
  }
  return problems;
};

export const loadNotifierConfig = (env: Record<string, string | undefined> = process.env): NotifierConfig => {
  const parsed = loadConfig(notifierConfigSchema, env);
  const problems = crossFieldProblems(parsed);
  let extraCaPem: string | undefined;
  if (parsed.WEBHOOK_EXTRA_CA_FILE && problems.length === 0) {
    try {
      extraCaPem = readFileSync(parsed.WEBHOOK_EXTRA_CA_FILE, 'utf8');
      if (!extraCaPem.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no PEM certificate');
    } catch (err) {
      problems.push(`WEBHOOK_EXTRA_CA_FILE: cannot read a PEM certificate (${(err as Error).message})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { ...parsed, extraCaPem };
};
