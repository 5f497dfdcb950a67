import { createHmac } from 'node:crypto';

/** An authenticator app's arithmetic (RFC 6238, SHA-1, 30 s, 6 digits), written apart from the gateway's. */
const base32 = (text: string): Buffer => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of text.replace(/=+$/, '')) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  return Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
};

/** The code the app shows now, or `offset` 30-second steps from now. */
export const authenticatorCode = (secret: string, offset = 0): string => {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + offset));
  const mac = createHmac('sha1', base32(secret)).update(counter).digest();
  const at = mac[19]! & 0xf;
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, '0');
};
