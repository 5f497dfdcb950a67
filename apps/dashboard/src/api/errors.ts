/** A failure the gateway answered in the error envelope, or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: ReadonlyArray<{ path?: string; message: string; code?: string }> = [],
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export const isApiError = (err: unknown): err is ApiError => err instanceof ApiError;
