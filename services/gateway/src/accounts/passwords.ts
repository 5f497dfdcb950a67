import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashes are `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (base64url), so the parameters
 * travel with each hash: raising the cost later still verifies every stored hash.
 */
const SCHEME = 'scrypt';
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

const derive = (password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> => {
  const N = 2 ** logN;
  // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is below N = 2^15.
  const options: ScryptOptions = { N, r, p, maxmem: 128 * N * r * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
};

export const hashPassword = async (password: string, logN: number): Promise<string> => {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, logN, BLOCK_SIZE, PARALLELISM);
  return [SCHEME, logN, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
};

interface ParsedHash {
  logN: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

const parseHash = (stored: string): ParsedHash | undefined => {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== SCHEME) return undefined;
  const [logN, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![logN, r, p].every((n) => Number.isInteger(n) && n > 0) || logN > 22) return undefined;
  return { logN, r, p, salt: Buffer.from(parts[4]!, 'base64url'), key: Buffer.from(parts[5]!, 'base64url') };
};

/** Constant-time comparison of the derived key; a malformed stored hash never verifies. */
export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.logN, parsed.r, parsed.p);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
};

/**
 * A hash of a random password, verified against when the e-mail is unknown, so that a failed
 * login costs the same scrypt whether or not the account exists.
 */
export const createDecoyHash = (logN: number): (() => Promise<string>) => {
  let decoy: Promise<string> | undefined;
  return () => {
    decoy ??= hashPassword(randomBytes(24).toString('base64url'), logN).catch((err: unknown) => {
      decoy = undefined;
      throw err;
    });
    return decoy;
  };
};
