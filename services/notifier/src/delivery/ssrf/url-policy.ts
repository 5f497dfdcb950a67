import { lookup } from 'node:dns/promises';
import { blockedAddressReason, isIpLiteral, type AddressPolicy } from './addresses.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to; injectable so tests can play DNS (and DNS rebinding). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export interface UrlPolicy extends AddressPolicy {
  /** http:// is accepted too (ALLOW_INSECURE_WEBHOOKS; local development and tests). */
  allowHttp: boolean;
}

export const urlPolicy = (allowInsecure: boolean): UrlPolicy => ({
  allowHttp: allowInsecure,
  allowLoopback: allowInsecure,
});

export type UrlRejectionCode =
  'invalid_url' | 'insecure_url' | 'url_credentials' | 'blocked_address' | 'unresolvable_host';

export class UrlRejected extends Error {
  override readonly name = 'UrlRejected';
  constructor(
    readonly code: UrlRejectionCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The URL's host as the WHATWG parser canonicalised it: IPv4 in any notation (`2130706433`,
 * `0177.0.0.1`, `0x7f.1`, `127.1`) is already dotted decimal; IPv6 loses its brackets.
 */
export const urlHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * What can be decided without DNS: scheme, no credentials, and an IP-literal host (which the
 * connect-time lookup hook never sees, so it must be judged here, also before every request).
 */
export function checkUrlWithoutDns(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRejected('invalid_url', 'URL is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) {
    throw new UrlRejected('insecure_url', 'URL must use HTTPS');
  }
  if (url.username || url.password) {
    throw new UrlRejected('url_credentials', 'URL must not contain a user name or password');
  }
  const host = urlHost(url);
  if (isIpLiteral(host)) {
    const reason = blockedAddressReason(host, policy);
    if (reason) throw new UrlRejected('blocked_address', `URL points to a non-public address: ${reason}`);
  }
  return url;
}

/**
 * The check at create and update: the rules above, and a host name must resolve and every address
 * it resolves to must be public (one private answer is enough to refuse). Delivery checks again at
 * connect time, on the address actually connected to.
 */
export async function checkWebhookUrl(raw: string, policy: UrlPolicy, resolve: Resolver): Promise<URL> {
  const url = checkUrlWithoutDns(raw, policy);
  const host = urlHost(url);
  if (isIpLiteral(host)) return url;
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) {
    throw new UrlRejected('unresolvable_host', `Host ${host} could not be resolved`);
  }
  for (const { address } of addresses) {
    const reason = blockedAddressReason(address, policy);
    if (reason) {
      throw new UrlRejected('blocked_address', `Host ${host} resolves to a non-public address: ${reason}`);
    }
  }
  return url;
}
