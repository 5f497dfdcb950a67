import type { Db } from '@stablepay/platform';
import { MERCHANTS } from '../db/tables.js';
import { findVersionedMerchant, type VersionedMerchant } from './merchants-repo.js';

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
