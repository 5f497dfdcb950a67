import type { Knex } from 'knex';

export interface MerchantRow {
  id: string;
  public_id: string;
  name: string;
  blockchain: string;
  accepted_currencies: string[];
  created_at: Date;
}

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  merchant_id: string;
  created_at: Date;
  /** sealed; set while two-factor sign-in is on */
  totp_secret?: Buffer | null;
  /** sealed; a secret being enrolled, not yet confirmed with a code */
  totp_pending_secret?: Buffer | null;
  totp_enabled_at?: Date | null;
  /** bigint column: pg hands it over as a string */
  totp_last_step?: string | number | null;
  /** null until the address is confirmed (accounts older than confirmation have their creation time) */
  email_confirmed_at?: Date | null;
  confirmation_sent_at?: Date | null;
  confirmation_window_at?: Date | null;
  confirmation_sends?: number;
}

export const USERS_EMAIL_UNIQUE = 'users_email_unique';

export const insertMerchant = async (
  db: Knex | Knex.Transaction,
  row: Omit<MerchantRow, 'created_at'>,
): Promise<MerchantRow> => {
  const [created] = await db<MerchantRow>('merchants').insert(row).returning('*');
  return created!;
};

export const insertUser = async (
  db: Knex | Knex.Transaction,
  row: Omit<UserRow, 'created_at'>,
): Promise<UserRow> => {
  const [created] = await db<UserRow>('users').insert(row).returning('*');
  return created!;
};

export const findUserByEmail = async (db: Knex, email: string): Promise<UserRow | undefined> =>
  db<UserRow>('users').where({ email }).first();

export const findUserById = async (db: Knex | Knex.Transaction, id: string): Promise<UserRow | undefined> =>
  db<UserRow>('users').where({ id }).first();

export const findMerchantById = async (
  db: Knex | Knex.Transaction,
  id: string,
): Promise<MerchantRow | undefined> => db<MerchantRow>('merchants').where({ id }).first();

export const findMerchantByPublicId = async (db: Knex, publicId: string): Promise<MerchantRow | undefined> =>
  db<MerchantRow>('merchants').where({ public_id: publicId }).first();
