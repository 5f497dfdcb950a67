import type { Knex } from 'knex';
import type { Db } from '@stablepay/platform';

export interface EmailConfirmationRow {
  id: string;
  user_id: string;
  secret_digest: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
}

/** Confirmation links an account may be sent in one hour, whatever the resend interval. */
export const CONFIRMATIONS_PER_HOUR = 5;

export const insertEmailConfirmation = async (
  db: Db,
  row: Pick<EmailConfirmationRow, 'id' | 'user_id' | 'secret_digest' | 'expires_at'>,
): Promise<void> => {
  await db('email_confirmations').insert(row);
};

export const findEmailConfirmation = async (db: Db, id: string): Promise<EmailConfirmationRow | undefined> =>
  db<EmailConfirmationRow>('email_confirmations').where({ id }).first();

/** Spends a link: true for the one request that did (the `used_at is null` test decides, not a read). */
export const useEmailConfirmation = async (trx: Knex.Transaction, id: string): Promise<boolean> =>
  (await trx('email_confirmations').where({ id }).whereNull('used_at').update({ used_at: trx.fn.now() })) ===
  1;

/** Marks the address confirmed; false when it already was. */
export const markEmailConfirmed = async (trx: Knex.Transaction, userId: string): Promise<boolean> =>
  (await trx('users')
    .where({ id: userId })
    .whereNull('email_confirmed_at')
    .update({ email_confirmed_at: trx.fn.now() })) === 1;

/**
 * Takes one confirmation send from the account's allowance, in one conditional UPDATE (so requests at
 * once cannot all pass): false while the account is confirmed, the last link is younger than
 * `minGapSeconds`, or this hour's links are spent.
 */
export const takeConfirmationSend = async (
  db: Db,
  userId: string,
  minGapSeconds: number,
): Promise<boolean> => {
  const result = (await db.raw(
    `update users
        set confirmation_sent_at = now(),
            confirmation_sends = case when confirmation_window_at > now() - interval '1 hour'
                                      then confirmation_sends + 1 else 1 end,
            confirmation_window_at = case when confirmation_window_at > now() - interval '1 hour'
                                          then confirmation_window_at else now() end
      where id = ? and email_confirmed_at is null
        and (confirmation_sent_at is null
             or confirmation_sent_at <= now() - (? * interval '1 second'))
        and (confirmation_window_at is null
             or confirmation_window_at <= now() - interval '1 hour'
             or confirmation_sends < ?)
      returning id`,
    [userId, minGapSeconds, CONFIRMATIONS_PER_HOUR],
  )) as { rows: unknown[] };
  return result.rows.length === 1;
};

/** One "someone tried to register with your address" notice an hour at most; true when this one may go. */
export const takeRegistrationNotice = async (db: Db, userId: string): Promise<boolean> =>
  (await db('users')
    .where({ id: userId })
    .andWhere((q) =>
      q
        .whereNull('registration_notice_at')
        .orWhere('registration_notice_at', '<=', db.raw(`now() - interval '1 hour'`)),
    )
    .update({ registration_notice_at: db.fn.now() })) === 1;
