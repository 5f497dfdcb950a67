import type { Knex } from 'knex';

export interface MerchantRow {
  id: string;
  public_id: string;
  name: string;
  blockchain: string;
  accepted_currencies: string[];
  created_at: Date;
}

export const insertMerchant = async (
  db: Knex | Knex.Transaction,
  row: Omit<MerchantRow, 'created_at'>,
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
