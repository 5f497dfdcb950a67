import type { Db } from '@stablepay/platform';
import type { MerchantRecord } from '../records.js';
import { MERCHANTS } from '../db/tables.js';
import { toMerchant, type Row } from '../db/rows.js';

/**
 * A merchant as read, with its row's version: PostgreSQL's `xmin`, the transaction that last wrote
 * the row, which every projected change (created, settings, wallet) moves. A statement that should
 * act only on this reading checks `merchantUnchangedSql` in the same snapshot as its write.
 */
export interface VersionedMerchant {
  merchant: MerchantRecord;
  version: string;
}

/** Fixed text, like every statement asked on each payment report. */
const BY_PUBLIC_ID = `select xmin::text as row_version, * from ${MERCHANTS} where public_id = ? limit 1`;

export const findVersionedMerchant = async (
  db: Db,
  publicId: string,
): Promise<VersionedMerchant | undefined> => {
  const { rows } = (await db.raw(BY_PUBLIC_ID, [publicId])) as { rows: Row[] };
  return rows[0] ? { merchant: toMerchant(rows[0]), version: String(rows[0].row_version) } : undefined;
};

/** True in a statement while the merchant's row is still the version read; binds merchant id, version. */
export const merchantUnchangedSql = `exists (select 1 from ${MERCHANTS} where merchant_id = ? and xmin::text = ?)`;

/**
 * The merchants this replica has read for payment reports, so a report costs one statement instead
 * of two. A cached merchant is never trusted alone: the report's insert holds its version as a
 * condition, and a refusal is judged again on a fresh read, so a change made in any replica (or by
 * the projection) is seen by the next report exactly as without the cache. Bounded: the oldest entry
 * goes when it is full. Merchants not found are not kept.
 */
export class MerchantCache {
  private readonly entries = new Map<string, VersionedMerchant>();

  constructor(private readonly capacity = 10_000) {}

  get(publicId: string): VersionedMerchant | undefined {
    return this.entries.get(publicId);
  }

  /** Reads the merchant fresh and keeps the reading. */
  async read(db: Db, publicId: string): Promise<VersionedMerchant | undefined> {
    const found = await findVersionedMerchant(db, publicId);
    this.entries.delete(publicId);
    if (!found) return undefined;
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(publicId, found);
    return found;
  }

  forget(publicId: string): void {
    this.entries.delete(publicId);
  }
}
