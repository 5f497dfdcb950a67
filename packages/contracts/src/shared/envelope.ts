import { z } from 'zod';

/**
 * One item of the error envelope's `details`. The spec leaves the structure open; ours is:
 * `path` (dotted field path, "" for the whole body), `message` (human readable), `code` (machine
 * readable: the zod issue code for validation failures, otherwise a snake_case reason).
 */
export const ErrorDetail = z.object({
  path: z.string(),
  message: z.string(),
  code: z.string(),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;

export const ErrorEnvelope = z.object({
  success: z.literal(false),
  error: z.string(),
  details: z.array(ErrorDetail),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** `{success: true, data, message?}` around a payload schema. */
export function successEnvelope<T extends z.ZodType>(dataSchema: T) {
  return z.object({
    success: z.literal(true),
    data: dataSchema,
    message: z.string().optional(),
  });
}
export type SuccessEnvelope<T> = { success: true; data: T; message?: string };

/** `{success: true, message?}` for operations that return no data (delete, cancel). */
export const messageEnvelope = z.object({
  success: z.literal(true),
  message: z.string().optional(),
});
export type MessageEnvelope = z.infer<typeof messageEnvelope>;

/** Minimal shape of a zod 4 issue that we rely on (works for z.core.$ZodIssue). */
export interface IssueLike {
  readonly code?: string;
  readonly path?: readonly PropertyKey[];
  readonly message: string;
}

/** Zod issues -> error details: path joined with '.', code = the zod issue code. */
export function zodIssuesToDetails(issues: readonly IssueLike[]): ErrorDetail[] {
  return issues.map((issue) => ({
    path: (issue.path ?? []).map((segment) => String(segment)).join('.'),
    message: issue.message,
    code: issue.code ?? 'custom',
  }));
}

/** Builds the failure envelope. */
export function errorEnvelope(error: string, details: ErrorDetail[] = []): ErrorEnvelope {
  return { success: false, error, details };
}
