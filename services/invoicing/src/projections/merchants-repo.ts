import type { Knex } from 'knex';
import { MERCHANTS } from '../db/migrations.js';
import type { Row } from '../db/rows.js';

type Db = Knex | Knex.Transaction;

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

export const findMerchant = async (db: Db, merchantId: string): Promise<MerchantProjection | undefined> => {
  const r = (await db(MERCHANTS).where({ merchant_id: merchantId }).first()) as Row | undefined;
  return r
    ? {
        merchantId: String(r.merchant_id),
        publicId: String(r.public_id),
        name: String(r.name),
        email: String(r.email),
        blockchain: String(r.blockchain),
        emailConfirmed: r.email_confirmed === true,
      }
    : undefined;
};
