import type { Db } from '@stablepay/platform';
import type { WithdrawalAddressRecord } from './records.js';
import { WITHDRAWAL_ADDRESSES } from '../db/migrations.js';
import { column, firstOf, rowMapper, type Row } from '../db/rows.js';

/** Every entry with whether its hold has passed, by the database's clock (the one that set it). */
const withUsable = (db: Db) =>
  db(WITHDRAWAL_ADDRESSES).select(`${WITHDRAWAL_ADDRESSES}.*`, db.raw('usable_from <= now() as usable'));

const toAddress = rowMapper<WithdrawalAddressRecord>({
  id: column.text,
  merchantId: column.text,
  address: column.text,
  label: column.text,
  createdAt: column.date,
  usableFrom: column.date,
  removedAt: column.dateOrNull,
  usable: column.flag,
});

/** Added now, usable once `holdMs` has passed (both times from the database's clock). */
export const insertWithdrawalAddress = async (
  db: Db,
  row: { id: string; merchantId: string; address: string; label: string; userId: string; holdMs: number },
): Promise<WithdrawalAddressRecord> => {
  await db(WITHDRAWAL_ADDRESSES).insert({
    id: row.id,
    merchant_id: row.merchantId,
    address: row.address,
    label: row.label,
    // Cut to the column's millisecond precision here: stored as is, a rounded-up usable_from would
    // sit after now() and keep an address with no hold on hold for a moment.
    created_at: db.raw(`date_trunc('milliseconds', now())`),
    usable_from: db.raw(`date_trunc('milliseconds', now()) + ? * interval '1 millisecond'`, [row.holdMs]),
    added_by_user_id: row.userId,
  });
  return (await findWithdrawalAddress(db, row.merchantId, row.id))!;
};

export const findWithdrawalAddress = async (
  db: Db,
  merchantId: string,
  id: string,
): Promise<WithdrawalAddressRecord | undefined> => {
  return firstOf(withUsable(db).where({ id, merchant_id: merchantId }), toAddress);
};

/** The entry on the book for an address (not removed), whatever its spelling. */
export const findLiveAddress = async (
  db: Db,
  merchantId: string,
  address: string,
): Promise<WithdrawalAddressRecord | undefined> => {
  return firstOf(
    withUsable(db)
      .where({ merchant_id: merchantId })
      .whereRaw('lower(address) = ?', [address.toLowerCase()])
      .whereNull('removed_at'),
    toAddress,
  );
};

/** Entries on the book, oldest first. */
export const listLiveAddresses = async (db: Db, merchantId: string): Promise<WithdrawalAddressRecord[]> =>
  (
    (await withUsable(db)
      .where({ merchant_id: merchantId })
      .whereNull('removed_at')
      .orderBy([{ column: 'created_at' }, { column: 'id' }])) as Row[]
  ).map(toAddress);

/** on the book → removed; undefined when it was not on the book (already removed, or unknown). */
export const markAddressRemoved = async (
  db: Db,
  merchantId: string,
  id: string,
  userId: string,
): Promise<WithdrawalAddressRecord | undefined> => {
  const updated = await db(WITHDRAWAL_ADDRESSES)
    .where({ id, merchant_id: merchantId })
    .whereNull('removed_at')
    .update({ removed_at: db.fn.now(), removed_by_user_id: userId });
  return updated ? findWithdrawalAddress(db, merchantId, id) : undefined;
};
