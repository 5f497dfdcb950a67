import type { Knex } from 'knex';
import type { Db } from '@stablepay/platform';

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

export const lockUser = async (trx: Knex.Transaction, id: string): Promise<UserRow | undefined> =>
  trx<UserRow>('users').where({ id }).forUpdate().first();

export const updateUserSecurity = async (
  db: Db,
  id: string,
  fields: Partial<
    Pick<
      UserRow,
      'totp_secret' | 'totp_pending_secret' | 'totp_enabled_at' | 'totp_last_step' | 'password_hash'
    >
  >,
): Promise<void> => {
  await db('users').where({ id }).update(fields);
};
