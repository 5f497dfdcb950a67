import { AppError, fieldDetail, unauthorized } from '@stablepay/platform';
import { findUserById, lockUser } from '../accounts/users-repo.js';
import { auditUserAction } from '../audit/audit-log-repo.js';
import type { GatewayContext, RequestMeta } from '../gateway-context.js';
import { useStepUpCode } from './second-factor.js';

/** Wrong step-up codes a user may send in STEP_UP_FAILURE_WINDOW before further codes are refused. */
export const STEP_UP_MAX_FAILURES = 5;
const STEP_UP_FAILURE_WINDOW_MINUTES = 15;

export type StepUpMethod = 'mfa' | 'recent_sign_in';

const refused = (message: string, code: string): AppError =>
  new AppError('forbidden', message, [fieldDetail('', message, code)]);

/** Wrong codes recorded for the user lately: a stolen access token cannot guess its way through. */
const recentFailures = async (ctx: GatewayContext, userId: string): Promise<number> => {
  const [row] = await ctx
    .db('audit_log')
    .where({ user_id: userId, action: 'auth.step_up_failed' })
    .andWhere('occurred_at', '>', ctx.db.raw(`now() - interval '${STEP_UP_FAILURE_WINDOW_MINUTES} minutes'`))
    .count<{ count: string | number }[]>({ count: '*' });
  return Number(row?.count ?? 0);
};

/**
 * Proves, before a sensitive action, that the person holding the session is its user: with two-factor
 * sign-in on, a current authenticator code (`X-Mfa-Code`, each code once); otherwise a password
 * sign-in within STEP_UP_MAX_AGE_SECONDS (the access token's `auth_time`). Refusals are 403 with a
 * detail code the dashboard acts on: `mfa_code_required` / `mfa_code_invalid` (ask for a code),
 * `reauthentication_required` (ask for the password and sign in again).
 */
export const stepUp = async (
  ctx: GatewayContext,
  who: { userId: string; authTime?: number },
  code: string | undefined,
  meta: RequestMeta,
): Promise<StepUpMethod> => {
  const user = await findUserById(ctx.db, who.userId);
  if (!user) throw unauthorized('Account no longer exists');
  if (!user.totp_enabled_at) {
    const maxAge = ctx.config.STEP_UP_MAX_AGE_SECONDS;
    const age = who.authTime === undefined ? Infinity : Date.now() / 1000 - who.authTime;
    if (age <= maxAge) return 'recent_sign_in';
    throw refused(
      `Sign in again to confirm it is you (your sign-in is older than ${Math.round(maxAge / 60)} minutes)`,
      'reauthentication_required',
    );
  }
  if (!code?.trim()) throw refused('Enter a code from your authenticator app', 'mfa_code_required');
  if ((await recentFailures(ctx, user.id)) >= STEP_UP_MAX_FAILURES)
    throw new AppError(
      'rate_limited',
      'Too many wrong codes; try again later',
      [fieldDetail('', 'Too many wrong authenticator codes', 'too_many_attempts')],
      STEP_UP_FAILURE_WINDOW_MINUTES * 60,
    );
  const accepted = await ctx.db.transaction(async (trx) => {
    const locked = await lockUser(trx, user.id);
    return !!locked?.totp_enabled_at && (await useStepUpCode(ctx, trx, locked, code));
  });
  if (accepted) return 'mfa';
  await auditUserAction(ctx.db, 'auth.step_up_failed', user, meta);
  throw refused('The code is not valid (codes are accepted once)', 'mfa_code_invalid');
};
