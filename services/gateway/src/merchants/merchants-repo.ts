import type { Knex } from 'knex';
import type { Language } from '@stablepay/contracts';

export interface MerchantRow {
  id: string;
  public_id: string;
  name: string;
  blockchain: string;
  accepted_currencies: string[];
  created_at: Date;
  accent_color: string | null;
  network_fee_bearer: 'customer' | 'merchant' | null;
  /** en, de, fr, es, it; null: not chosen (English) */
  language: Language | null;
  settings_version: number;
  settings_updated_at: Date | null;
}

/** The columns a new merchant is created with; the settings start empty. */
export type NewMerchantRow = Pick<
  MerchantRow,
  'id' | 'public_id' | 'name' | 'blockchain' | 'accepted_currencies' | 'language'
>;

export const insertMerchant = async (
  db: Knex | Knex.Transaction,
  row: NewMerchantRow,
): Promise<MerchantRow> => {
  const [created] = await db<MerchantRow>('merchants').insert(row).returning('*');
  return created!;
};

export const findMerchantById = async (
  db: Knex | Knex.Transaction,
  id: string,
): Promise<MerchantRow | undefined> => db<MerchantRow>('merchants').where({ id }).first();

export const findMerchantByPublicId = async (db: Knex, publicId: string): Promise<MerchantRow | undefined> =>
  db<MerchantRow>('merchants').where({ public_id: publicId }).first();
