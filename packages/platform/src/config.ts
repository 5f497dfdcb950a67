import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses environment variables against a zod object whose keys are the variable names, so every
 * problem names the variable to fix. Empty strings count as unset.
 */
export const loadConfig = <S extends z.ZodObject>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.infer<S> => {
  const input: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') input[key] = v;
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  return parsed.data;
};

/** Reusable variable parsers. */
export const envBool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
export const envPort = z.coerce.number().int().min(0).max(65535);
export const envInt = z.coerce.number().int();
export const envSecret = (minLength = 32) =>
  z.string().min(minLength, `must be at least ${minLength} characters`);

/** Variables every service reads. */
export const baseConfigShape = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly']).default('info'),
  LOG_PRETTY: envBool.default(false),
  HOST: z.string().default('0.0.0.0'),
  /** PostgreSQL URL; without it the service runs on embedded PGlite under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  /** Schema that holds this service's tables (its own database in production). */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .optional(),
  /**
   * Connections each process keeps to PostgreSQL. Requests and workers wait for one when all are in
   * use; PostgreSQL's max_connections must cover every replica's pool.
   */
  DATABASE_POOL_MAX: envInt.pipe(z.number().int().min(1).max(200)).default(10),
  /**
   * The statements run on every request or message are prepared once per connection. Turn off
   * behind a pooler that moves a session's statements between connections (PgBouncer in
   * transaction mode before 1.21, or without max_prepared_statements).
   */
  DATABASE_PREPARED_STATEMENTS: envBool.default(true),
  DATA_DIR: z.string().default('var/data'),
  /** RabbitMQ URL; without it an in-process bus is used (single-process runs only). */
  AMQP_URL: z.string().optional(),
  /** Prefix for exchange and queue names so that runs never share queues. */
  AMQP_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9._-]*$/)
    .default(''),
  /** Signs the tokens services give each other (HS256); verified with it or the previous value. */
  INTERNAL_TOKEN_SECRET: envSecret(32),
  /**
   * During a rotation only: the other value of INTERNAL_TOKEN_SECRET, accepted when verifying and
   * never used to sign (docs/operations.md, Rotating secrets).
   */
  INTERNAL_TOKEN_SECRET_PREVIOUS: envSecret(32).optional(),
  SHUTDOWN_GRACE_MS: envInt.default(10_000),
  /**
   * `api` serves HTTP only, `worker` runs consumers and background workers only (HTTP keeps
   * /healthz, /readyz and /metrics), `all` both: one image, scaled per role.
   */
  SERVICE_ROLE: z.enum(['api', 'worker', 'all']).default('all'),
  /**
   * Bearer token Prometheus sends to read /metrics. Unset, /metrics is not served at all: the
   * gateway's port is public, and the figures (routes, volumes, backlogs) are nobody else's business.
   */
  METRICS_TOKEN: envSecret(32).optional(),
};

/** The variables every service reads, with the port and database schema this service defaults to. */
export const serviceConfigShape = (defaults: { port: number; schema: string }) => ({
  ...baseConfigShape,
  PORT: envPort.default(defaults.port),
  DATABASE_SCHEMA: baseConfigShape.DATABASE_SCHEMA.unwrap().default(defaults.schema),
});

/** What every service's configuration carries. */
export interface BaseServiceConfig {
  PORT: number;
  HOST: string;
  DATABASE_SCHEMA: string;
  INTERNAL_TOKEN_SECRET: string;
  INTERNAL_TOKEN_SECRET_PREVIOUS?: string;
  SHUTDOWN_GRACE_MS: number;
  SERVICE_ROLE: ServiceRole;
  METRICS_TOKEN?: string;
  LOG_LEVEL: string;
  LOG_PRETTY: boolean;
  DATABASE_URL?: string;
  DATABASE_POOL_MAX: number;
  DATABASE_PREPARED_STATEMENTS: boolean;
  DATA_DIR: string;
  AMQP_URL?: string;
  AMQP_PREFIX: string;
}

export type ServiceRole = 'api' | 'worker' | 'all';
