import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for the account secrets the gateway must read back (TOTP secrets): a copy of the
 * database alone does not give them. The key is derived from the server pepper for this purpose only.
 */
export const secretBox = (pepper: string, purpose: string) => {
  const key = createHmac('sha256', pepper).update(`secret-box.v1\0${purpose}`).digest();
  return {
    seal(plain: Buffer): Buffer {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    open(sealed: Buffer): Buffer {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
    },
  };
};
