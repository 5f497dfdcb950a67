import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { blockedAddressReason, type AddressPolicy } from './addresses.js';
import type { Resolver } from './url-policy.js';

/** The connection was refused before it was made: the host resolved to a non-public address. */
export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
  readonly code = 'EBLOCKEDADDRESS';
  constructor(
    readonly hostname: string,
    readonly reason: string,
  ) {
    super(`${hostname} resolves to a non-public address: ${reason}`);
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for net/tls.connect (undici's `connect.lookup`): resolves the name, refuses the
 * connection when ANY address is not public, and hands the socket only addresses it has checked,
 * so there is no gap between the check and the connect for DNS rebinding to use. Node 20 asks with
 * `all: true` (happy eyeballs); older callers get the first address.
 */
export const guardedLookup = (policy: AddressPolicy, resolve: Resolver): LookupFunction =>
  ((hostname: string, options: LookupOptions, callback: LookupCallback) => {
    resolve(hostname).then(
      (resolved) => {
        for (const { address } of resolved) {
          const reason = blockedAddressReason(address, policy);
          if (reason) return callback(new BlockedAddressError(hostname, reason), '', 0);
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = wanted ? resolved.filter((a) => a.family === wanted) : resolved;
        if (usable.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          return callback(err, '', 0);
        }
        if (options.all)
          return callback(
            null,
            usable.map((a) => ({ address: a.address, family: a.family })),
          );
        callback(null, usable[0]!.address, usable[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  }) as LookupFunction;
