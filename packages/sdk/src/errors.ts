/** One item of the error envelope's `details`. */
export interface ErrorDetail {
  path: string;
  message: string;
  code: string;
}

const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  422: 'unprocessable',
  429: 'rate_limited',
  501: 'not_implemented',
  503: 'unavailable',
};

/**
 * Every failure of an API call: `status` is the HTTP status (0 when no answer arrived), `message`
 * the envelope's `error`, `details` its items, and `code` the first detail's code or, without one,
 * a name for the status (`not_found`, `rate_limited`, `timeout`, `network_error`, ...).
 */
export class StablepayError extends Error {
  override readonly name = 'StablepayError';
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];
  /** The gateway's request id, to quote when asking for help. */
  readonly requestId: string | undefined;

  constructor(opts: {
    status: number;
    message: string;
    code?: string;
    details?: ErrorDetail[];
    requestId?: string;
    cause?: unknown;
  }) {
    super(opts.message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.status = opts.status;
    this.details = opts.details ?? [];
    this.code =
      opts.code ??
      this.details.find((d) => d.code)?.code ??
      CODE_BY_STATUS[opts.status] ??
      (opts.status >= 500 ? 'server_error' : 'http_error');
    this.requestId = opts.requestId;
  }
}

/** A webhook whose signature, timestamp or body does not check out; the receiver answers 401. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

const isDetail = (d: unknown): d is ErrorDetail =>
  typeof d === 'object' && d !== null && typeof (d as ErrorDetail).message === 'string';

/** The error a non-2xx answer stands for, from its envelope when it has one. */
export const errorFromAnswer = (status: number, body: unknown, requestId: string | undefined) => {
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as {
    error?: unknown;
    details?: unknown;
  };
  const details = Array.isArray(envelope.details)
    ? envelope.details.filter(isDetail).map((d) => ({
        path: String(d.path ?? ''),
        message: d.message,
        code: String(d.code ?? ''),
      }))
    : [];
  const message = typeof envelope.error === 'string' ? envelope.error : `HTTP ${status}`;
  return new StablepayError({ status, message, details, requestId });
};
