import { createHmac, randomBytes } from 'node:crypto';

/** RFC 6238 with the parameters every authenticator app uses: HMAC-SHA1, 30-second steps, 6 digits. */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Codes one step either side of now are accepted: a phone's clock is rarely exact. */
const DRIFT_STEPS = 1;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export const base32Encode = (bytes: Buffer): string => {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
};

export const base32Decode = (text: string): Buffer => {
  const clean = text.toUpperCase().replace(/[\s=]/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const index = ALPHABET.indexOf(ch);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
};

/** A new 160-bit secret (RFC 4226's recommended length). */
export const newTotpSecret = (): Buffer => randomBytes(20);

export const stepAt = (unixMs: number): number => Math.floor(unixMs / 1000 / TOTP_STEP_SECONDS);

/** The code of one time step (RFC 4226 dynamic truncation). */
export const totpCode = (secret: Buffer, step: number): string => {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', secret).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** TOTP_DIGITS;
  return String(binary).padStart(TOTP_DIGITS, '0');
};

/**
 * The step a code belongs to, within the allowed drift and after `lastStep` (a code, once used, is
 * never accepted again, nor is an older one); undefined when it matches none.
 */
export const matchTotp = (
  secret: Buffer,
  code: string,
  nowMs: number,
  lastStep: number | undefined,
): number | undefined => {
  const now = stepAt(nowMs);
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    if (lastStep !== undefined && step <= lastStep) continue;
    if (totpCode(secret, step) === code) return step;
  }
  return undefined;
};

/** The `otpauth://` URI authenticator apps read from a QR code (Key Uri Format). */
export const otpauthUrl = (issuer: string, account: string, secretBase32: string): string => {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret: secretBase32,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query}`;
};
