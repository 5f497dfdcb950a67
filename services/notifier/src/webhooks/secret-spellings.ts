import type { Knex } from 'knex';
import type { Logger } from '@stablepay/platform';
import { replaceSealedSecret, sealedSecretsAfter } from './endpoints-repo.js';
import { SecretUnavailableError, openSecret, sealSecret, type SecretKeks } from './secrets.js';

export interface SpellingRepair {
  scanned: number;
  /** secrets that opened only under another spelling of their endpoint id, and were sealed again */
  repaired: string[];
}

/**
 * Spellings of an endpoint id that a request could have bound into a secret's associated data
 * before path parameters were canonicalised: the row holds the id in lower case (PostgreSQL's
 * uuid), the API took it in any case, and clients that upper-case ids send it all in capitals.
 * A mixed spelling cannot be guessed; such a secret stays unopenable and the merchant regenerates it.
 */
const spellingsOf = (id: string): string[] => [id.toUpperCase()].filter((s) => s !== id);

const opens = (sealed: string, keks: SecretKeks, id: string): string | undefined => {
  try {
    return openSecret(sealed, keks, id);
  } catch (err) {
    if (err instanceof SecretUnavailableError) return undefined;
    throw err;
  }
};

/**
 * Repairs secrets sealed under a non-canonical spelling of their endpoint's id (a secret
 * regenerated through `/merchant-webhooks/api/<ID IN CAPITALS>/regenerate-secret` before the fix):
 * each secret that does not open under its canonical id but opens under another spelling is sealed
 * again, to the same plaintext, under the canonical id and the current key. A secret that opens is
 * left alone, so running it at every start costs one decryption per endpoint and rewrites nothing.
 * Each rewrite is guarded by the value it read: a secret regenerated meanwhile is not overwritten.
 */
export const repairSecretSpellings = async (
  db: Knex,
  keks: SecretKeks,
  logger?: Logger,
  batchSize = 500,
): Promise<SpellingRepair> => {
  const result: SpellingRepair = { scanned: 0, repaired: [] };
  let after: string | undefined;
  for (;;) {
    const rows = await sealedSecretsAfter(db, after, batchSize);
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    result.scanned += rows.length;
    for (const row of rows) {
      if (opens(row.secretSealed, keks, row.id) !== undefined) continue;
      for (const spelling of spellingsOf(row.id)) {
        const secret = opens(row.secretSealed, keks, spelling);
        if (secret === undefined) continue;
        const resealed = sealSecret(secret, keks.current, row.id);
        if (await replaceSealedSecret(db, row.id, row.secretSealed, resealed)) result.repaired.push(row.id);
        break;
      }
    }
    if (rows.length < batchSize) break;
  }
  if (result.repaired.length > 0) {
    logger?.warn('webhook secrets sealed under a non-canonical spelling of their endpoint id re-sealed', {
      count: result.repaired.length,
      endpointIds: result.repaired.slice(0, 20),
    });
  }
  return result;
};
