import type { ZodError } from 'zod';
import { INSUFFICIENT_SCOPE, zodIssuesToDetails, type ErrorDetail } from '@stablepay/contracts';

/** Every failure a client can cause or see maps to exactly one kind, and each kind to one status. */
export const errorStatus = {
  validation: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  not_implemented: 501,
  unavailable: 503,
} as const;

export type ErrorKind = keyof typeof errorStatus;

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly details: ErrorDetail[];
  /** Seconds, sent as Retry-After for rate_limited and unavailable. */
  readonly retryAfter?: number;

  constructor(kind: ErrorKind, message: string, details: ErrorDetail[] = [], retryAfter?: number) {
    super(message);
    this.name = 'AppError';
    this.kind = kind;
    this.details = details;
    this.retryAfter = retryAfter;
  }

  get status(): number {
    return errorStatus[this.kind];
  }
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;

export const validationError = (zodError: ZodError, where = 'Request'): AppError =>
  new AppError('validation', `${where} validation failed`, zodIssuesToDetails(zodError.issues));

export const notFound = (what: string): AppError => new AppError('not_found', `${what} not found`);

export const conflict = (message: string, details: ErrorDetail[] = []): AppError =>
  new AppError('conflict', message, details);

export const badRequest = (message: string, details: ErrorDetail[] = []): AppError =>
  new AppError('bad_request', message, details);

export const unauthorized = (message = 'Authentication required'): AppError =>
  new AppError('unauthorized', message);

export const forbidden = (message: string): AppError => new AppError('forbidden', message);

/** An API key without the scope a route needs: 403, naming the scope. */
export const insufficientScope = (scope: string): AppError =>
  new AppError('forbidden', `This API key lacks the scope ${scope}`, [
    {
      path: '',
      message: `The API key needs the scope ${scope}: create a key that holds it`,
      code: INSUFFICIENT_SCOPE,
    },
  ]);

/** A detail naming one field, for rule violations found after schema parsing. */
export const fieldDetail = (path: string, message: string, code = 'invalid'): ErrorDetail => ({
  path,
  message,
  code,
});
