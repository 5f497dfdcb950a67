import type { Knex } from 'knex';
import { loopWorker, type LoopWorker, type Logger } from '@stablepay/platform';
import { replaceSealedSecret, sealedSecretsAfter } from './endpoints-repo.js';
import { sealSecret, sealedUnder, type SecretKeks } from './secrets.js';
import type { NotifierMetrics } from '../metrics.js';

export interface ResealScan {
  /** endpoints read */
  scanned: number;
  /** secrets found sealed under the previous key */
  underPrevious: number;
  /** of those, the ones this scan rewrote (the others had changed meanwhile: re-sealed elsewhere or regenerated) */
  resealed: number;
  /** endpoints whose secret opens under neither key */
  unopenable: string[];
  /** false when the scan was cut short by a stop */
  complete: boolean;
}

/**
 * One scan over every endpoint: each secret that opens only under the previous key is sealed again,
 * to the same plaintext, under the current one. A batch at a time, each batch's rewrites in one
 * transaction, and each rewrite guarded by the sealed value it read: replicas scanning at the same
 * time, or a merchant regenerating the secret meanwhile, never lose a write, and a row is re-sealed
 * once whatever the number of replicas.
 */
export const resealSecrets = async (
  db: Knex,
  keks: Required<SecretKeks>,
  batchSize: number,
  stopping: () => boolean = () => false,
): Promise<ResealScan> => {
  const scan: ResealScan = { scanned: 0, underPrevious: 0, resealed: 0, unopenable: [], complete: false };
  let after: string | undefined;
  for (;;) {
    if (stopping()) return scan;
    const rows = await sealedSecretsAfter(db, after, batchSize);
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    scan.scanned += rows.length;
    const rewrites: Array<{ id: string; expected: string; replacement: string }> = [];
    for (const row of rows) {
      const found = sealedUnder(row.secretSealed, keks, row.id);
      if (found.under === 'previous') {
        rewrites.push({
          id: row.id,
          expected: row.secretSealed,
          replacement: sealSecret(found.secret, keks.current, row.id),
        });
      } else if (found.under === 'neither') scan.unopenable.push(row.id);
    }
    scan.underPrevious += rewrites.length;
    if (rewrites.length > 0) {
      scan.resealed += await db.transaction(async (trx) => {
        let n = 0;
        for (const r of rewrites) if (await replaceSealedSecret(trx, r.id, r.expected, r.replacement)) n += 1;
        return n;
      });
    }
    if (rows.length < batchSize) break;
  }
  scan.complete = true;
  return scan;
};

/**
 * Runs only while WEBHOOK_SECRET_KEK_PREVIOUS is set: scans every interval, because replicas still
 * running with the old key alone seal new secrets under it until the rollout is over. Progress is
 * logged and exposed as webhook_secrets_not_under_kek and webhook_secrets_resealed_total.
 */
export const resealSecretsWorker = (opts: {
  db: Knex;
  keks: Required<SecretKeks>;
  batchSize: number;
  intervalMs: number;
  logger: Logger;
  metrics: NotifierMetrics;
}): LoopWorker => {
  const { logger, metrics } = opts;
  let reportedDone = false;
  return loopWorker({
    name: 'webhook-secret-reseal',
    intervalMs: opts.intervalMs,
    logger,
    pass: async (stopping) => {
      const scan = await resealSecrets(opts.db, opts.keks, opts.batchSize, stopping);
      metrics.secretsResealed.inc(scan.resealed);
      if (!scan.complete) return false;
      metrics.secretsNotUnderKek.set({ sealed_under: 'previous' }, scan.underPrevious);
      metrics.secretsNotUnderKek.set({ sealed_under: 'neither' }, scan.unopenable.length);
      if (scan.unopenable.length > 0) {
        logger.warn('webhook secrets that neither WEBHOOK_SECRET_KEK nor WEBHOOK_SECRET_KEK_PREVIOUS opens', {
          endpointIds: scan.unopenable.slice(0, 20),
          count: scan.unopenable.length,
        });
      }
      if (scan.underPrevious > 0) {
        reportedDone = false;
        logger.info('webhook secrets re-sealed under WEBHOOK_SECRET_KEK', {
          scanned: scan.scanned,
          underPrevious: scan.underPrevious,
          resealed: scan.resealed,
        });
      } else if (!reportedDone) {
        reportedDone = true;
        logger.info(
          'no webhook secret is sealed under WEBHOOK_SECRET_KEK_PREVIOUS: once every replica runs with the new key, remove it',
          { scanned: scan.scanned },
        );
      }
      return false;
    },
  });
};
