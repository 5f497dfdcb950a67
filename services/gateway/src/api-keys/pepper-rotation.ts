import type { Knex } from 'knex';
import type { Logger } from '@stablepay/platform';
import { secretBox } from '../crypto/secret-box.js';

interface Peppers {
  API_KEY_PEPPER: string;
  API_KEY_PEPPER_PREVIOUS?: string;
}

/** The current pepper, then the previous one while a rotation is under way. */
export const peppers = (config: Peppers): string[] =>
  config.API_KEY_PEPPER_PREVIOUS
    ? [config.API_KEY_PEPPER, config.API_KEY_PEPPER_PREVIOUS]
    : [config.API_KEY_PEPPER];

/** Opens what either pepper's box sealed (GCM refuses the wrong key), or throws. */
export const openSealed = (config: Peppers, purpose: string, sealed: Buffer): Buffer => {
  let failure: unknown;
  for (const pepper of peppers(config)) {
    try {
      return secretBox(pepper, purpose).open(sealed);
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
};

const TOTP_COLUMNS = ['totp_secret', 'totp_pending_secret'] as const;

/**
 * Re-seals under the current pepper every TOTP secret that only the previous one opens, so the
 * previous pepper can be dropped without turning anyone's authenticator off. Run at start while
 * a rotation is under way; each row is updated only if it still holds what was read.
 */
export const resealTotpSecrets = async (db: Knex, config: Peppers, logger: Logger): Promise<number> => {
  const previous = config.API_KEY_PEPPER_PREVIOUS;
  if (!previous) return 0;
  const current = secretBox(config.API_KEY_PEPPER, 'totp');
  const old = secretBox(previous, 'totp');
  const rows: { id: string; totp_secret: Buffer | null; totp_pending_secret: Buffer | null }[] = await db(
    'users',
  )
    .whereNotNull('totp_secret')
    .orWhereNotNull('totp_pending_secret')
    .select('id', ...TOTP_COLUMNS);
  let moved = 0;
  for (const row of rows) {
    for (const column of TOTP_COLUMNS) {
      const sealed = row[column];
      if (!sealed) continue;
      try {
        current.open(sealed);
        continue;
      } catch {
        // not under the current pepper: try the previous one
      }
      let plain: Buffer;
      try {
        plain = old.open(sealed);
      } catch {
        logger.warn('a TOTP secret opens under neither pepper', { userId: row.id, column });
        continue;
      }
      moved += await db('users')
        .where({ id: row.id, [column]: sealed })
        .update({ [column]: current.seal(plain) });
    }
  }
  return moved;
};
