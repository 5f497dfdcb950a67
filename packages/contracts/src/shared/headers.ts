/** HTTP header names used at the merchant-facing edge (webhook headers: see webhooks/payloads.ts). */
export const HttpHeaders = {
  ApiKey: 'X-API-Key',
  Authorization: 'Authorization',
  /** optional on POST: the first answer for (credential, route, key) is replayed for 24 h */
  IdempotencyKey: 'Idempotency-Key',
  /** echoed on every response; quote it when reporting a problem */
  RequestId: 'X-Request-Id',
  /** seconds to wait, sent with 429 and 503 */
  RetryAfter: 'Retry-After',
  /** a current authenticator code, on routes that need a step-up when two-factor sign-in is on */
  MfaCode: 'X-Mfa-Code',
} as const;
export type HttpHeaderName = (typeof HttpHeaders)[keyof typeof HttpHeaders];
