import { concat, dataLength, dataSlice, getBytes, hexlify, toBeHex, toUtf8Bytes, zeroPadBytes } from 'ethers';

/*
 * Circle's Forwarding Service hook: bytes 0-23 the ASCII magic "cctp-forward" zero-padded, 24-27 a
 * uint32 version (0 today), 28-31 a uint32 length of Circle's own extra data; the integrator's hook
 * data may follow.
 */
export const FORWARD_MAGIC = zeroPadBytes(toUtf8Bytes('cctp-forward'), 24);
export const FORWARD_HOOK_VERSION = 0;
const FORWARD_HEADER_BYTES = 32;

/** Forwarding hook data with no extra Circle data; `integratorData` is appended after it. */
export const encodeForwardHookData = (integratorData = '0x'): string =>
  concat([FORWARD_MAGIC, toBeHex(FORWARD_HOOK_VERSION, 4), toBeHex(0, 4), getBytes(integratorData)]);

export type ForwardRequest = { valid: true; version: number } | { valid: false; reason: string };

/** undefined when the hook data does not ask for forwarding at all (no magic). */
export const parseForwardHook = (hookData: string): ForwardRequest | undefined => {
  const length = dataLength(hookData);
  if (length < 24 || hexlify(dataSlice(hookData, 0, 24)) !== FORWARD_MAGIC) return undefined;
  if (length < FORWARD_HEADER_BYTES) return { valid: false, reason: 'forwarding hook data is truncated' };
  const version = Number(BigInt(dataSlice(hookData, 24, 28)));
  const extra = Number(BigInt(dataSlice(hookData, 28, 32)));
  if (version !== FORWARD_HOOK_VERSION) {
    return { valid: false, reason: `unsupported forwarding hook version ${version}` };
  }
  if (FORWARD_HEADER_BYTES + extra > length) {
    return { valid: false, reason: 'forwarding hook data is shorter than its declared length' };
  }
  return { valid: true, version };
};
