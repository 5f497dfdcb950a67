import { randomUUID } from 'node:crypto';
import {
  EventTypes,
  type ConfirmEmailBody,
  type EmailConfirmed,
  type Language,
  type ResendConfirmationBody,
} from '@stablepay/contracts';
import { AppError, fieldDetail, sealText } from '@stablepay/platform';
import type { Knex } from 'knex';
import { findMerchantById, type MerchantRow } from '../merchants/merchants-repo.js';
import { findUserByEmail, findUserById, type UserRow } from './users-repo.js';
import { auditUserAction } from '../audit/audit-log-repo.js';
import {
  findEmailConfirmation,
  insertEmailConfirmation,
  markEmailConfirmed,
  takeConfirmationSend,
  takeRegistrationNotice,
  useEmailConfirmation,
} from './email-confirmations-repo.js';
import type { GatewayContext, RequestMeta } from '../gateway-context.js';
import { randomSecret, safeEqualHex, sha256Hex } from '../crypto/digests.js';

/** A confirmation link works for a day after it was sent. */
export const CONFIRMATION_TTL_SECONDS = 24 * 3600;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The token is `<row id>.<secret>`: the id finds the row, and the secret's SHA-256 is compared with
 * the stored one in constant time, so neither a lookup by secret nor the comparison leaks it.
 */
const parseToken = (token: string): { id: string; secret: string } | undefined => {
  const [id, secret, ...rest] = token.split('.');
  if (!id || !secret || rest.length > 0 || !UUID.test(id) || !/^[A-Za-z0-9_-]{43}$/.test(secret))
    return undefined;
  return { id, secret };
};

const refusal = (message: string, code: string): AppError =>
  new AppError('unprocessable', message, [fieldDetail('token', message, code)]);

const INVALID = () =>
  refusal('This confirmation link is not valid (it may have been used already)', 'confirmation_invalid');
const EXPIRED = () =>
  refusal('This confirmation link has expired; ask for a new one', 'confirmation_expired');

/**
 * Makes a confirmation link for the user and asks the notifier to e-mail it, in the caller's
 * transaction (the link exists exactly when its e-mail is on its way).
 */
export const issueConfirmation = async (
  ctx: GatewayContext,
  trx: Knex.Transaction,
  user: Pick<UserRow, 'id' | 'email' | 'merchant_id'>,
  merchant: Pick<MerchantRow, 'name' | 'language'>,
): Promise<void> => {
  const id = randomUUID();
  const secret = randomSecret();
  const expiresAt = new Date(Date.now() + CONFIRMATION_TTL_SECONDS * 1000);
  await insertEmailConfirmation(trx, {
    id,
    user_id: user.id,
    secret_digest: sha256Hex(secret),
    expires_at: expiresAt,
  });
  // In the hash: the token never reaches a server log or a Referer.
  const link = `${ctx.config.dashboardUrl}/#/confirm-email?token=${encodeURIComponent(`${id}.${secret}`)}`;
  await ctx.writeEvent(trx, EventTypes.AccountEmailRequested, user.merchant_id, {
    kind: 'email_confirmation',
    merchantId: user.merchant_id,
    email: user.email,
    merchantName: merchant.name,
    ...(merchant.language && { language: merchant.language }),
    sealedLink: sealText(ctx.config.INTERNAL_TOKEN_SECRET, link),
    expiresAt: expiresAt.toISOString(),
  });
};

/** A new link, when the account awaits confirmation and its allowance of links is not spent. */
const resendTo = async (ctx: GatewayContext, user: UserRow, meta: RequestMeta): Promise<void> => {
  const merchant = await findMerchantById(ctx.db, user.merchant_id);
  if (!merchant) return;
  await ctx.db.transaction(async (trx) => {
    if (!(await takeConfirmationSend(trx, user.id, ctx.config.EMAIL_CONFIRMATION_RESEND_SECONDS))) return;
    await issueConfirmation(ctx, trx, user, merchant);
    await auditUserAction(trx, 'user.email_confirmation_sent', user, meta);
  });
};

/**
 * POST /auth/email-confirmation/resend. Nothing in the answer or its timing depends on the address:
 * unknown, confirmed and rate-limited addresses are answered as the one that gets a link.
 */
export const resendConfirmation = async (
  ctx: GatewayContext,
  body: ResendConfirmationBody,
  meta: RequestMeta,
): Promise<void> => {
  const user = await findUserByEmail(ctx.db, body.email);
  if (user && !user.email_confirmed_at) await resendTo(ctx, user, meta);
};

/**
 * Registration named an address that already has an account. Its owner hears of it: a new
 * confirmation link while the account awaits one (most likely the owner registering again), or a
 * notice that someone tried to register (with where to sign in) once it is confirmed. The attempt is
 * in the account's audit log either way. The notice is in the merchant's language, else in the one
 * the registration asked in.
 */
export const registrationOfExistingAddress = async (
  ctx: GatewayContext,
  email: string,
  meta: RequestMeta,
  asked?: Language,
): Promise<void> => {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return;
  await auditUserAction(ctx.db, 'auth.registration_attempted', user, meta);
  if (!user.email_confirmed_at) {
    await resendTo(ctx, user, meta);
    return;
  }
  const merchant = await findMerchantById(ctx.db, user.merchant_id);
  if (!merchant) return;
  await ctx.db.transaction(async (trx) => {
    if (!(await takeRegistrationNotice(trx, user.id))) return;
    await ctx.writeEvent(trx, EventTypes.AccountEmailRequested, user.merchant_id, {
      kind: 'registration_attempted',
      merchantId: user.merchant_id,
      email: user.email,
      merchantName: merchant.name,
      language: merchant.language ?? asked ?? 'en',
      link: `${ctx.config.dashboardUrl}/#/`,
    });
  });
};

/**
 * POST /auth/email-confirmation. Spends the link and confirms the address, announcing it
 * (merchant.email_confirmed) in the same transaction: from then on the notifier e-mails the merchant
 * and invoicing lets it withdraw. A second link of an account already confirmed is spent too, and
 * answered as a success.
 */
export const confirmEmail = async (
  ctx: GatewayContext,
  body: ConfirmEmailBody,
  meta: RequestMeta,
): Promise<EmailConfirmed> => {
  const parsed = parseToken(body.token);
  const row = parsed ? await findEmailConfirmation(ctx.db, parsed.id) : undefined;
  if (!parsed || !row || !safeEqualHex(sha256Hex(parsed.secret), row.secret_digest)) throw INVALID();
  if (row.used_at) throw INVALID();
  if (row.expires_at.getTime() <= Date.now()) throw EXPIRED();
  const user = await findUserById(ctx.db, row.user_id);
  if (!user) throw INVALID();
  const outcome = await ctx.db.transaction(async (trx) => {
    if (!(await useEmailConfirmation(trx, row.id))) return 'used' as const;
    if (await markEmailConfirmed(trx, user.id)) {
      await ctx.writeEvent(trx, EventTypes.MerchantEmailConfirmed, user.merchant_id, {
        merchantId: user.merchant_id,
        email: user.email,
      });
      await auditUserAction(trx, 'user.email_confirmed', user, meta);
    }
    return 'confirmed' as const;
  });
  // A request that spent the same link a moment earlier won.
  if (outcome === 'used') throw INVALID();
  return { email: user.email, email_confirmed: true };
};
