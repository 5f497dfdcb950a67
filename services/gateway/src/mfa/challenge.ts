import { randomBytes, randomUUID } from 'node:crypto';
import type { LoginMfaBody, MfaChallenge, TokenPair } from '@stablepay/contracts';
import { AppError, fieldDetail, unauthorized } from '@stablepay/platform';
import type { Knex } from 'knex';
import { issueTokens } from '../accounts/tokens.js';
import { lockUser, type UserRow } from '../accounts/users-repo.js';
import { appendAudit } from '../audit/audit-log-repo.js';
import { sha256Hex } from '../crypto/digests.js';
import type { GatewayContext, RequestMeta } from '../gateway-context.js';
import { findMerchantById, type MerchantRow } from '../merchants/merchants-repo.js';
import { insertChallenge, lockChallenge, recordChallengeAttempt, type ChallengeRow } from './mfa-repo.js';
import { checkSecondFactor, type SecondFactor } from './second-factor.js';

/** How long the second step of a sign-in may wait, and how many wrong codes one challenge takes. */
export const MFA_CHALLENGE_TTL_SECONDS = 300;
export const MFA_MAX_ATTEMPTS = 5;
const INVALID_CHALLENGE = 'Sign-in expired or not found; sign in again';

/** The first step's answer for an account with two-factor sign-in: a single-use challenge. */
export const createChallenge = async (ctx: GatewayContext, user: UserRow): Promise<MfaChallenge> => {
  const token = randomBytes(32).toString('base64url');
  await insertChallenge(ctx.db, {
    id: randomUUID(),
    user_id: user.id,
    token_digest: sha256Hex(token),
    expires_at: new Date(Date.now() + MFA_CHALLENGE_TTL_SECONDS * 1000),
  });
  return { mfa_required: true, mfa_token: token, expires_in: MFA_CHALLENGE_TTL_SECONDS };
};

type SecondStep =
  | { kind: 'ok'; pair: TokenPair }
  | { kind: 'expired' }
  | { kind: 'wrong'; userId: string; merchantId: string; attemptsLeft: number };

interface ChallengeParty {
  trx: Knex.Transaction;
  challenge: ChallengeRow;
  user: UserRow;
  merchant: MerchantRow;
  meta: RequestMeta;
}

/** A wrong code costs the challenge one of its attempts; the last one burns it. */
const wrongCode = async ({ trx, challenge, user, merchant, meta }: ChallengeParty): Promise<SecondStep> => {
  const attempts = challenge.attempts + 1;
  await recordChallengeAttempt(trx, challenge.id, { used: attempts >= MFA_MAX_ATTEMPTS });
  await appendAudit(trx, {
    action: 'auth.mfa_failed',
    userId: user.id,
    merchantId: merchant.id,
    details: { attempt: attempts },
    ...meta,
  });
  return {
    kind: 'wrong',
    userId: user.id,
    merchantId: merchant.id,
    attemptsLeft: MFA_MAX_ATTEMPTS - attempts,
  };
};

const signedIn = async (
  ctx: GatewayContext,
  { trx, challenge, user, merchant, meta }: ChallengeParty,
  factor: SecondFactor,
): Promise<SecondStep> => {
  await recordChallengeAttempt(trx, challenge.id, { used: true });
  const pair = await issueTokens(ctx, trx, user, merchant, randomUUID());
  const party = { userId: user.id, merchantId: merchant.id, ...meta };
  if (factor === 'recovery_code') await appendAudit(trx, { action: 'auth.recovery_code_used', ...party });
  await appendAudit(trx, { action: 'auth.login_succeeded', details: { second_factor: factor }, ...party });
  return { kind: 'ok', pair };
};

/** The challenge's user and merchant, when the challenge may still be answered. */
const openChallenge = async (trx: Knex.Transaction, token: string) => {
  const challenge = await lockChallenge(trx, sha256Hex(token));
  if (!challenge || challenge.used_at || challenge.expires_at.getTime() <= Date.now()) return undefined;
  if (challenge.attempts >= MFA_MAX_ATTEMPTS) return undefined;
  const user = await lockUser(trx, challenge.user_id);
  const merchant = user ? await findMerchantById(trx, user.merchant_id) : undefined;
  if (!user || !merchant || !user.totp_enabled_at) return undefined;
  return { challenge, user, merchant };
};

/**
 * The second step: the challenge (single use, 5 minutes, 5 wrong codes at most) and a code. A
 * wrong code is counted in its own committed transaction, so guessing burns the challenge and the
 * password must be given again.
 */
export const loginMfa = async (
  ctx: GatewayContext,
  body: LoginMfaBody,
  meta: RequestMeta,
): Promise<TokenPair> => {
  const outcome = await ctx.db.transaction(async (trx): Promise<SecondStep> => {
    const open = await openChallenge(trx, body.mfa_token);
    if (!open) return { kind: 'expired' };
    const party = { trx, meta, ...open };
    const factor = await checkSecondFactor(ctx, trx, open.user, body.code);
    return factor ? signedIn(ctx, party, factor) : wrongCode(party);
  });
  if (outcome.kind === 'expired') throw unauthorized(INVALID_CHALLENGE);
  if (outcome.kind === 'wrong')
    throw outcome.attemptsLeft > 0
      ? new AppError('unauthorized', 'The code is not valid', [
          fieldDetail('code', `${outcome.attemptsLeft} attempts left`, 'invalid_code'),
        ])
      : unauthorized(INVALID_CHALLENGE);
  return outcome.pair;
};
