import type { Request } from 'express';

/** The gateway's rule for an Idempotency-Key: 1-255 visible ASCII characters. */
const REQUEST_KEY_RE = /^[\x21-\x7e]{1,255}$/;

/** The client's Idempotency-Key as the gateway forwarded it (after checking it), or undefined. */
export const requestKeyOf = (req: Request): string | undefined => {
  const key = req.header('idempotency-key');
  return key !== undefined && REQUEST_KEY_RE.test(key) ? key : undefined;
};
