import { applyNewerSettings, type Db } from '@stablepay/platform';
import type {
  MerchantCreatedData,
  MerchantSettingsUpdatedData,
  WalletAssignedData,
} from '@stablepay/contracts';
import type { MerchantRecord } from '../records.js';
import { MERCHANTS } from '../db/tables.js';
import { toMerchant, type Row } from '../db/rows.js';

/**
 * Idempotent: a replayed merchant.created leaves the same row, and never puts back the name a later
 * merchant.settings_updated changed.
 */
export const upsertMerchant = async (db: Db, m: MerchantCreatedData): Promise<void> => {
  await db(MERCHANTS)
    .insert({
      merchant_id: m.merchantId,
      public_id: m.publicId,
      name: m.name,
      blockchain: m.blockchain,
      accepted_currencies: JSON.stringify(m.acceptedCurrencies),
    })
    .onConflict('merchant_id')
    .merge({
      public_id: m.publicId,
      name: db.raw(
        `case when ${MERCHANTS}.settings_version > 0 then ${MERCHANTS}.name else excluded.name end`,
      ),
      blockchain: m.blockchain,
      accepted_currencies: JSON.stringify(m.acceptedCurrencies),
      updated_at: db.fn.now(),
    });
};

/**
 * Applies the settings when they are newer than those kept. Returns false when the merchant is not
 * (yet) projected; an older or repeated version is applied as nothing.
 */
export const applyMerchantSettings = (db: Db, s: MerchantSettingsUpdatedData): Promise<boolean> =>
  applyNewerSettings(db, MERCHANTS, s, {
    name: s.name,
    accent_color: s.accentColor,
    logo_url: s.logoUrl,
    network_fee_bearer: s.networkFeeBearer,
    updated_at: db.fn.now(),
  });

/** Returns false when the merchant is not (yet) projected. */
export const assignWallet = async (db: Db, w: WalletAssignedData): Promise<boolean> => {
  const n = await db(MERCHANTS).where({ merchant_id: w.merchantId }).update({
    wallet_id: w.walletId,
    wallet_address: w.address,
    wallet_blockchain: w.blockchain,
    wallet_chain_id: w.chainId,
    updated_at: db.fn.now(),
  });
  return n > 0;
};

/**
 * A merchant as read, with its row's version: PostgreSQL's `xmin`, the transaction that last wrote
 * the row, which every projected change (created, settings, wallet) moves. A statement that should
 * act only on this reading checks it in the same snapshot as its write (see merchant-cache.ts).
 */
export interface VersionedMerchant {
  merchant: MerchantRecord;
  version: string;
}

/** Asked on every payment report: fixed text, so the query builder does not compile it each time. */
const BY_PUBLIC_ID = `select xmin::text as row_version, * from ${MERCHANTS} where public_id = ? limit 1`;

export const findVersionedMerchant = async (
  db: Db,
  publicId: string,
): Promise<VersionedMerchant | undefined> => {
  const { rows } = (await db.raw(BY_PUBLIC_ID, [publicId])) as { rows: Row[] };
  return rows[0] ? { merchant: toMerchant(rows[0]), version: String(rows[0].row_version) } : undefined;
};

export const findMerchantByPublicId = async (db: Db, publicId: string): Promise<MerchantRecord | undefined> =>
  (await findVersionedMerchant(db, publicId))?.merchant;

export const findMerchantById = async (db: Db, merchantId: string): Promise<MerchantRecord | undefined> => {
  const row = (await db(MERCHANTS).where({ merchant_id: merchantId }).first()) as Row | undefined;
  return row ? toMerchant(row) : undefined;
};
