import { AppError, fieldDetail } from '@stablepay/platform';
import { sha256Hex } from '../crypto/digests.js';

/** Why a sign-in failed, as the audit log records it. */
export type SignInFailure = 'unknown_account' | 'wrong_password' | 'no_merchant' | 'account_locked';

/**
 * The account a sign-in names, as the failure counter knows it: a digest of the e-mail, known or
 * not, so that a lock-out says nothing about which e-mails have accounts and Redis holds no e-mails.
 */
export const signInAccountKey = (email: string): string => `account:${sha256Hex(email.trim().toLowerCase())}`;

export const accountLocked = (seconds: number): AppError => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const message =
    `Too many failed sign-ins for this account: it is locked for ${minutes} minute${minutes === 1 ? '' : 's'}, ` +
    'and until then every sign-in is refused, even with the correct password';
  return new AppError('rate_limited', message, [fieldDetail('email', message, 'account_locked')], seconds);
};
