import { hmacHex, randomSecret } from '../crypto/digests.js';

export interface NewApiKey {
  /** shown to the merchant once */
  key: string;
  digest: string;
  last4: string;
}

/**
 * API keys are `<prefix>_<environment>_<43 base64url chars>`. Only HMAC-SHA256(pepper, key) is
 * stored: a leaked table gives nothing that authenticates, and without the pepper it cannot even
 * be brute-forced offline.
 */
export const apiKeyDigest = (pepper: string, key: string): string => hmacHex(pepper, key);

/**
 * Names a pepper without revealing it, so the rows made under each pepper can be counted during a
 * rotation (`api_keys.pepper_fingerprint`).
 */
export const pepperFingerprint = (pepper: string): string =>
  hmacHex(pepper, 'pepper-fingerprint.v1').slice(0, 16);

export const generateApiKey = (pepper: string, prefix: string, environment: string): NewApiKey => {
  const key = `${prefix}_${environment}_${randomSecret()}`;
  return { key, digest: apiKeyDigest(pepper, key), last4: key.slice(-4) };
};

/** Cheap shape check before any database lookup (also bounds what is hashed). */
export const looksLikeApiKey = (value: string): boolean =>
  /^[a-z][a-z0-9]{0,15}_(live|test)_[A-Za-z0-9_-]{20,128}$/.test(value);
