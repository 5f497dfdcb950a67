/**
 * Dashboard authentication. Not part of the interface spec (it leaves "how a JWT is obtained"
 * open); served by the gateway under /auth/*.
 */
import { z } from 'zod';
import { MerchantName } from '../merchants/schemas.js';
import { messageEnvelope, successEnvelope } from '../shared/envelope.js';
import { LanguageCode } from '../shared/language-code.js';
import { Currency } from '../shared/money.js';
import { BlockchainName, MerchantPublicId, Uuid } from '../shared/scalars.js';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

const Email = z.email().max(255).toLowerCase();

export const RegisterBody = z.object({
  email: Email,
  password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
  merchantName: MerchantName,
  blockchain: BlockchainName,
  acceptedCurrencies: z
    .array(Currency)
    .min(1)
    .refine((list) => new Set(list).size === list.length, { message: 'currencies must be unique' })
    .default(['USDC', 'EURC']),
  /**
   * The dashboard's language when the merchant registered: the account e-mails are written in it,
   * and it is the merchant's language until they choose another in the settings. English without it.
   */
  language: LanguageCode.optional(),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

export const AuthUser = z.object({
  id: Uuid,
  email: z.string(),
  /** false until the address is confirmed through the link e-mailed at registration */
  email_confirmed: z.boolean(),
});

export const AuthMerchant = z.object({
  /** public merchant id (`<prefix>_live_<uuid>`) */
  id: MerchantPublicId,
  name: z.string(),
  blockchain: BlockchainName,
  accepted_currencies: z.array(Currency),
});

export const RegisteredAccount = z.object({ user: AuthUser, merchant: AuthMerchant });
export type RegisteredAccount = z.infer<typeof RegisteredAccount>;

/**
 * What POST /auth/register answers, the same whether the address was new or already had an account
 * (that account's owner is e-mailed instead), so the answer never tells which addresses exist.
 */
export const RegistrationAccepted = z.object({
  email: z.string(),
  /** always true: the account is usable once the link e-mailed to `email` is followed */
  confirmation_required: z.literal(true),
  /** seconds the e-mailed link stays valid */
  confirmation_expires_in: z.number().int().positive(),
});
export type RegistrationAccepted = z.infer<typeof RegistrationAccepted>;
/** 201 */
export const RegisterResponse = successEnvelope(RegistrationAccepted);

/** POST /auth/email-confirmation: the token from the e-mailed link. */
export const ConfirmEmailBody = z.object({ token: z.string().min(1).max(256) });
export type ConfirmEmailBody = z.infer<typeof ConfirmEmailBody>;
export const EmailConfirmed = z.object({ email: z.string(), email_confirmed: z.literal(true) });
export type EmailConfirmed = z.infer<typeof EmailConfirmed>;
export const ConfirmEmailResponse = successEnvelope(EmailConfirmed);

/** POST /auth/email-confirmation/resend: answered alike for every address. */
export const ResendConfirmationBody = z.object({ email: Email });
export type ResendConfirmationBody = z.infer<typeof ResendConfirmationBody>;
export const ResendConfirmationResponse = messageEnvelope.extend({});

export const LoginBody = z.object({
  email: Email,
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const TokenPair = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  /** access token lifetime in seconds */
  expires_in: z.number().int().positive(),
  /** opaque, single use: every refresh returns a new one and revokes the old */
  refresh_token: z.string(),
  /** refresh token lifetime in seconds */
  refresh_expires_in: z.number().int().positive(),
});
export type TokenPair = z.infer<typeof TokenPair>;
export const TokenResponse = successEnvelope(TokenPair);

export const RefreshBody = z.object({ refresh_token: z.string().min(1).max(512) });
export type RefreshBody = z.infer<typeof RefreshBody>;

export const LogoutBody = z.object({ refresh_token: z.string().min(1).max(512) });
export type LogoutBody = z.infer<typeof LogoutBody>;
export const LogoutResponse = messageEnvelope.extend({});

/** GET /auth/me */
export const MeResponse = successEnvelope(RegisteredAccount);
