import { randomUUID } from 'node:crypto';
import {
  EventTypes,
  type RegisterBody,
  type RegisteredAccount,
  type RegistrationAccepted,
} from '@stablepay/contracts';
import { AppError, fieldDetail, isUniqueViolation } from '@stablepay/platform';
import { appendAudit } from '../audit/audit-log-repo.js';
import type { GatewayContext, RequestMeta } from '../gateway-context.js';
import { merchantPublicId } from '../merchants/merchant-ids.js';
import { findMerchantById, insertMerchant, type MerchantRow } from '../merchants/merchants-repo.js';
import {
  CONFIRMATION_TTL_SECONDS,
  issueConfirmation,
  registrationOfExistingAddress,
} from './email-confirmation.js';
import { hashPassword } from './passwords.js';
import { findUserById, insertUser, USERS_EMAIL_UNIQUE, type UserRow } from './users-repo.js';

export const accountView = (user: UserRow, merchant: MerchantRow): RegisteredAccount => ({
  user: { id: user.id, email: user.email, email_confirmed: !!user.email_confirmed_at },
  merchant: {
    id: merchant.public_id,
    name: merchant.name,
    blockchain: merchant.blockchain as RegisteredAccount['merchant']['blockchain'],
    accepted_currencies: merchant.accepted_currencies as RegisteredAccount['merchant']['accepted_currencies'],
  },
});

const assertSupportedBlockchain = (supported: readonly string[], blockchain: string): void => {
  if (supported.includes(blockchain)) return;
  throw new AppError('validation', 'Body validation failed', [
    fieldDetail('blockchain', `must be one of ${supported.join(', ')}`, 'unsupported_blockchain'),
  ]);
};

/**
 * Creates the user and its merchant, announces the merchant and asks for the confirmation e-mail, all
 * in one transaction. An address that already has an account gets the same answer after the same
 * work (one scrypt, one failed insert), and its owner is e-mailed instead: the answer never tells
 * which addresses are registered.
 */
export const register = async (
  ctx: GatewayContext,
  body: RegisterBody,
  meta: RequestMeta,
): Promise<RegistrationAccepted> => {
  const { config, db } = ctx;
  assertSupportedBlockchain(config.supportedBlockchains, body.blockchain);
  const passwordHash = await hashPassword(body.password, config.SCRYPT_COST);
  const merchantId = randomUUID();
  const publicId = merchantPublicId(config.MERCHANT_ID_PREFIX, config.ENVIRONMENT, merchantId);
  try {
    await db.transaction(async (trx) => {
      const merchant = await insertMerchant(trx, {
        id: merchantId,
        public_id: publicId,
        name: body.merchantName,
        blockchain: body.blockchain,
        accepted_currencies: body.acceptedCurrencies,
        language: body.language ?? null,
      });
      const user = await insertUser(trx, {
        id: randomUUID(),
        email: body.email,
        password_hash: passwordHash,
        merchant_id: merchantId,
        // The first link counts against the account's allowance of confirmation e-mails.
        confirmation_sent_at: new Date(),
        confirmation_window_at: new Date(),
        confirmation_sends: 1,
      });
      await ctx.writeEvent(trx, EventTypes.MerchantCreated, merchantId, {
        merchantId,
        publicId,
        name: merchant.name,
        blockchain: body.blockchain,
        acceptedCurrencies: body.acceptedCurrencies,
        email: user.email,
        emailConfirmed: false,
        ...(merchant.language && { language: merchant.language }),
      });
      await issueConfirmation(ctx, trx, user, merchant);
      await appendAudit(trx, { action: 'user.registered', userId: user.id, merchantId, ...meta });
    });
  } catch (err) {
    if (!isUniqueViolation(err, USERS_EMAIL_UNIQUE)) throw err;
    await registrationOfExistingAddress(ctx, body.email, meta, body.language);
  }
  return {
    email: body.email,
    confirmation_required: true,
    confirmation_expires_in: CONFIRMATION_TTL_SECONDS,
  };
};

export const me = async (ctx: GatewayContext, userId: string): Promise<RegisteredAccount> => {
  const user = await findUserById(ctx.db, userId);
  const merchant = user ? await findMerchantById(ctx.db, user.merchant_id) : undefined;
  if (!user || !merchant) throw new AppError('unauthorized', 'Account no longer exists');
  return accountView(user, merchant);
};
