import type { Knex } from 'knex';
import type { LogoContentType } from '@stablepay/contracts';
import type { MerchantRow } from './merchants-repo.js';

type Db = Knex | Knex.Transaction;

/** A logo's description, without its bytes. */
export interface LogoMeta {
  merchant_id: string;
  content_type: LogoContentType;
  sha256: string;
  width: number;
  height: number;
  bytes: number;
  updated_at: Date;
}

export interface LogoRow extends LogoMeta {
  image: Buffer;
}

const META_COLUMNS = ['merchant_id', 'content_type', 'sha256', 'width', 'height', 'bytes', 'updated_at'];

/** The merchant's row, locked until the transaction ends: settings changes are applied one at a time. */
export const lockMerchant = async (trx: Knex.Transaction, id: string): Promise<MerchantRow | undefined> =>
  trx<MerchantRow>('merchants').where({ id }).forUpdate().first();

export type SettingsChange = Partial<
  Pick<MerchantRow, 'name' | 'accent_color' | 'network_fee_bearer' | 'language'>
>;

/** Applies `change` (possibly nothing), counts a new version and answers the row as it now is. */
export const saveSettings = async (
  trx: Knex.Transaction,
  id: string,
  change: SettingsChange,
): Promise<MerchantRow> => {
  const [row] = await trx<MerchantRow>('merchants')
    .where({ id })
    .update({
      ...change,
      settings_version: trx.raw('settings_version + 1') as unknown as number,
      settings_updated_at: trx.fn.now() as unknown as Date,
    })
    .returning('*');
  return row!;
};

export const findLogoMeta = async (db: Db, merchantId: string): Promise<LogoMeta | undefined> =>
  db<LogoMeta>('merchant_logos').select(META_COLUMNS).where({ merchant_id: merchantId }).first() as Promise<
    LogoMeta | undefined
  >;

export const findLogo = async (db: Db, merchantId: string): Promise<LogoRow | undefined> =>
  db<LogoRow>('merchant_logos').where({ merchant_id: merchantId }).first();

export const upsertLogo = async (
  trx: Knex.Transaction,
  logo: Omit<LogoRow, 'updated_at'>,
): Promise<LogoMeta> => {
  const [row] = await trx('merchant_logos')
    .insert({ ...logo, updated_at: trx.fn.now() })
    .onConflict('merchant_id')
    .merge()
    .returning(META_COLUMNS);
  return row as LogoMeta;
};

/** Whether there was a logo to remove. */
export const deleteLogo = async (trx: Knex.Transaction, merchantId: string): Promise<boolean> =>
  (await trx('merchant_logos').where({ merchant_id: merchantId }).delete()) > 0;
