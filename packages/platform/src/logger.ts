import winston from 'winston';
import { currentContext } from './context.js';

export type Logger = winston.Logger;

/** Keys whose values never reach a log line, whatever object they are nested in. */
const SECRET_KEY =
  /pass(word)?|secret|token|api[-_]?key|authorization|private[-_]?key|mnemonic|cookie|signature|^key$/i;
const REDACTED = '[redacted]';

export const redact = (value: unknown, depth = 0): unknown => {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = SECRET_KEY.test(k) ? REDACTED : redact(v, depth + 1);
  }
  return out;
};

const redactFormat = winston.format((info) => {
  for (const key of Object.keys(info)) {
    if (key === 'level' || key === 'message') continue;
    info[key] = SECRET_KEY.test(key) ? REDACTED : redact(info[key]);
  }
  return info;
});

const contextFormat = winston.format((info) => {
  const ctx = currentContext();
  if (ctx.requestId && info.requestId === undefined) info.requestId = ctx.requestId;
  if (ctx.correlationId && info.correlationId === undefined) info.correlationId = ctx.correlationId;
  return info;
});

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Human-readable lines instead of JSON (local development only). */
  pretty?: boolean;
  silent?: boolean;
}

export const createLogger = (opts: LoggerOptions): Logger =>
  winston.createLogger({
    level: opts.level ?? 'info',
    silent: opts.silent ?? false,
    defaultMeta: { service: opts.service },
    format: winston.format.combine(
      contextFormat(),
      redactFormat(),
      winston.format.timestamp(),
      winston.format.errors({ stack: true }),
      opts.pretty
        ? winston.format.printf(
            (i) => `${String(i.timestamp)} ${i.level} [${String(i.service)}] ${String(i.message)}`,
          )
        : winston.format.json(),
    ),
    transports: [new winston.transports.Console({ stderrLevels: ['error', 'warn'] })],
  });
