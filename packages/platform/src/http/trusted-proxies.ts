import { isIP } from 'node:net';
import { z } from 'zod';

/** What express's `trust proxy` is given: false (nobody) or the addresses and subnets of our proxies. */
export type TrustProxy = false | string[];

/** proxy-addr's names for whole ranges, accepted as entries too. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const validEntry = (entry: string): boolean => {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
};

/**
 * TRUSTED_PROXIES: the addresses or CIDRs of the proxies we run (`10.0.0.0/8,127.0.0.1`), whose
 * X-Forwarded-For is believed; a client's own header is ignored. Unset, nobody is trusted and the
 * client address is the TCP peer's, which is right wherever the service's port is published directly.
 */
export const trustedProxiesSchema = z
  .string()
  .optional()
  .transform((text) =>
    (text ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry.length > 0),
  )
  .superRefine((entries, ctx) => {
    for (const entry of entries.filter((e) => !validEntry(e)))
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not an IP address, a CIDR (10.0.0.0/8) or loopback/linklocal/uniquelocal`,
      });
  })
  .transform((entries): TrustProxy => (entries.length > 0 ? entries : false));

/**
 * TRUST_PROXY counted hops or trusted everyone: with the port published directly that let any client
 * name its own address. Refused at start rather than ignored, so that an upgrade says what changed.
 */
export const retiredTrustProxySchema = z
  .string()
  .optional()
  .refine((v) => v === undefined, {
    message: 'is replaced by TRUSTED_PROXIES, the addresses or CIDRs of the proxies in front of the service',
  });
