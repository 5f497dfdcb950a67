/**
 * The checkout session's QR tag: 1..9999 base units added to the amount a QR-code transfer moves, so
 * that the service can tell this session's transfer from anyone else's without a signature (see
 * docs/api/README.md, "Checkout session links"). SHA-256 of the session id, first 4 bytes big-endian,
 * modulo 9999, plus 1: the same as services/payments/src/checkout/session-link.ts.
 */
export const qrTagUnits = async (sessionId: string): Promise<bigint> => {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(sessionId)));
  const first = ((digest[0]! << 24) >>> 0) + (digest[1]! << 16) + (digest[2]! << 8) + digest[3]!;
  return (BigInt(first) % 9999n) + 1n;
};
