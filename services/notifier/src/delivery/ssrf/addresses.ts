import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which destination addresses a webhook may reach. Everything that is not plainly a public unicast
 * address is refused; `allowLoopback` (ALLOW_INSECURE_WEBHOOKS, local development and tests) lets
 * 127.0.0.0/8 and ::1 through and nothing else.
 */
export interface AddressPolicy {
  allowLoopback: boolean;
}

type V4Range = { base: number; bits: number; name: string };
type V6Range = { base: bigint; bits: number; name: string };

const v4 = (cidr: string, name: string): V4Range => {
  const [addr, bits] = cidr.split('/') as [string, string];
  return { base: ipv4ToInt(addr)!, bits: Number(bits), name };
};
const v6 = (cidr: string, name: string): V6Range => {
  const [addr, bits] = cidr.split('/') as [string, string];
  return { base: ipv6ToBigInt(addr)!, bits: Number(bits), name };
};

const LOOPBACK_V4 = 'loopback (127.0.0.0/8)';

const BLOCKED_V4: V4Range[] = [
  v4('0.0.0.0/8', '"this network" (0.0.0.0/8)'),
  v4('10.0.0.0/8', 'private (10.0.0.0/8)'),
  v4('100.64.0.0/10', 'shared address space, CGNAT (100.64.0.0/10)'),
  v4('127.0.0.0/8', LOOPBACK_V4),
  v4('169.254.0.0/16', 'link-local, cloud metadata (169.254.0.0/16)'),
  v4('172.16.0.0/12', 'private (172.16.0.0/12)'),
  v4('192.0.0.0/24', 'IETF protocol assignments (192.0.0.0/24)'),
  v4('192.0.2.0/24', 'documentation (192.0.2.0/24)'),
  v4('192.88.99.0/24', '6to4 relay anycast (192.88.99.0/24)'),
  v4('192.168.0.0/16', 'private (192.168.0.0/16)'),
  v4('198.18.0.0/15', 'benchmarking (198.18.0.0/15)'),
  v4('198.51.100.0/24', 'documentation (198.51.100.0/24)'),
  v4('203.0.113.0/24', 'documentation (203.0.113.0/24)'),
  v4('224.0.0.0/4', 'multicast (224.0.0.0/4)'),
  v4('240.0.0.0/4', 'reserved or broadcast (240.0.0.0/4)'),
];

/** Checked in order after IPv4-mapped addresses were turned into IPv4. */
const BLOCKED_V6: V6Range[] = [
  v6('::/96', 'unspecified, loopback or IPv4-compatible (::/96)'),
  v6('64:ff9b::/96', 'NAT64 (64:ff9b::/96)'),
  v6('64:ff9b:1::/48', 'local NAT64 (64:ff9b:1::/48)'),
  v6('100::/64', 'discard-only (100::/64)'),
  v6('2001::/32', 'Teredo (2001::/32)'),
  v6('2001:2::/48', 'benchmarking (2001:2::/48)'),
  v6('2001:10::/28', 'ORCHID (2001:10::/28)'),
  v6('2001:20::/28', 'ORCHIDv2 (2001:20::/28)'),
  v6('2001:db8::/32', 'documentation (2001:db8::/32)'),
  v6('2002::/16', '6to4 (2002::/16)'),
  v6('3fff::/20', 'documentation (3fff::/20)'),
  v6('5f00::/16', 'SRv6 SIDs (5f00::/16)'),
  v6('fc00::/7', 'unique local (fc00::/7)'),
  v6('fe80::/10', 'link-local (fe80::/10)'),
  v6('fec0::/10', 'site-local (fec0::/10)'),
  v6('ff00::/8', 'multicast (ff00::/8)'),
];
const GLOBAL_UNICAST = v6('2000::/3', 'global unicast');
const MAPPED_V4 = v6('::ffff:0:0/96', 'IPv4-mapped');

/** Dotted-quad IPv4 (the form the URL parser and the resolver produce) to an unsigned integer. */
export function ipv4ToInt(ip: string): number | undefined {
  if (!isIPv4(ip)) return undefined;
  return ip.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

const intToIpv4 = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

/** Any valid IPv6 text (compressed, with an embedded IPv4 tail, with a zone) to a 128-bit integer. */
export function ipv6ToBigInt(ip: string): bigint | undefined {
  let text = ip.toLowerCase();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (!isIPv6(text)) return undefined;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const n = ipv4ToInt(tail);
    if (n === undefined) return undefined;
    text = `${text.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length > 1 && halves[1] ? halves[1].split(':') : [];
  const groups = [...head, ...Array<string>(8 - head.length - rest.length).fill('0'), ...rest];
  if (groups.length !== 8) return undefined;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

const inV4 = (n: number, r: V4Range): boolean =>
  r.bits === 0 || n >>> (32 - r.bits) === r.base >>> (32 - r.bits);
const inV6 = (n: bigint, r: V6Range): boolean => {
  const shift = BigInt(128 - r.bits);
  return n >> shift === r.base >> shift;
};

const v4Reason = (n: number, policy: AddressPolicy): string | undefined => {
  const hit = BLOCKED_V4.find((r) => inV4(n, r));
  if (!hit) return undefined;
  if (hit.name === LOOPBACK_V4 && policy.allowLoopback) return undefined;
  return hit.name;
};

/**
 * Why `ip` may not be connected to, or undefined when it may. IPv4-mapped IPv6 is judged as the IPv4
 * address it carries; 6to4, NAT64 and Teredo are refused outright (each can reach an arbitrary IPv4
 * address through a relay), and the IPv4 they embed is named in the reason.
 */
export function blockedAddressReason(ip: string, policy: AddressPolicy): string | undefined {
  const n4 = ipv4ToInt(ip);
  if (n4 !== undefined) return v4Reason(n4, policy);
  const n6 = ipv6ToBigInt(ip);
  if (n6 === undefined) return 'not an IP address';
  if (inV6(n6, MAPPED_V4)) {
    const reason = v4Reason(Number(n6 & 0xffffffffn), policy);
    return reason && `IPv4-mapped ${intToIpv4(Number(n6 & 0xffffffffn))}: ${reason}`;
  }
  if (n6 === 1n && policy.allowLoopback) return undefined;
  if (n6 === 1n) return 'loopback (::1)';
  if (n6 === 0n) return 'unspecified (::)';
  const hit = BLOCKED_V6.find((r) => inV6(n6, r));
  if (hit) {
    const embedded = embeddedIpv4(n6, hit);
    return embedded ? `${hit.name}, embeds ${embedded}` : hit.name;
  }
  if (!inV6(n6, GLOBAL_UNICAST)) return 'not a global unicast address';
  return undefined;
}

/** The IPv4 address carried by a 6to4, NAT64 or Teredo address, for the error message. */
const embeddedIpv4 = (n: bigint, range: V6Range): string | undefined => {
  if (range.name.startsWith('6to4')) return intToIpv4(Number((n >> 80n) & 0xffffffffn));
  if (range.name.startsWith('NAT64')) return intToIpv4(Number(n & 0xffffffffn));
  // Teredo keeps the client's IPv4 in the low 32 bits, inverted.
  if (range.name.startsWith('Teredo')) return intToIpv4(Number(~n & 0xffffffffn));
  return undefined;
};

export const isIpLiteral = (host: string): boolean =>
  ipv4ToInt(host) !== undefined || ipv6ToBigInt(host) !== undefined;
