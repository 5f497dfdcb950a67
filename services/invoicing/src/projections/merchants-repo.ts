import type { Db } from '@stablepay/platform';
import { MERCHANTS } from '../db/migrations.js';
import { column, firstOf, rowMapper } from '../db/rows.js';

export interface MerchantProjection {
  merchantId: string;
  publicId: string;
  name: string;
  email: string;
  blockchain: string;
  /** false until merchant.email_confirmed; no withdrawal before */
  emailConfirmed: boolean;
}

/**
 * merchant.created: the latest name and address win (a re-delivered older copy changes nothing new);
 * a confirmation already recorded stays.
 */
export const upsertMerchant = async (db: Db, m: MerchantProjection): Promise<void> => {
  await db(MERCHANTS)
    .insert({
      merchant_id: m.merchantId,
      public_id: m.publicId,
      name: m.name,
      email: m.email,
      blockchain: m.blockchain,
      email_confirmed: m.emailConfirmed,
    })
    .onConflict('merchant_id')
    .merge({
      public_id: m.publicId,
      name: m.name,
      email: m.email,
      blockchain: m.blockchain,
      email_confirmed: db.raw(`${MERCHANTS}.email_confirmed or excluded.email_confirmed`),
    });
};

/** merchant.email_confirmed; false when merchant.created has not been projected yet. */
export const confirmMerchantEmail = async (db: Db, merchantId: string): Promise<boolean> =>
  (await db(MERCHANTS).where({ merchant_id: merchantId }).update({ email_confirmed: true })) === 1;

const toMerchant = rowMapper<MerchantProjection>({
  merchantId: column.text,
  publicId: column.text,
  name: column.text,
  email: column.text,
  blockchain: column.text,
  emailConfirmed: column.flag,
});

export const findMerchant = async (db: Db, merchantId: string): Promise<MerchantProjection | undefined> => {
  return firstOf(db(MERCHANTS).where({ merchant_id: merchantId }), toMerchant);
};
