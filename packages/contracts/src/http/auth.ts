/**
 * Dashboard authentication. Not part of the interface spec (it leaves "how a JWT is obtained"
 * open); served by the gateway under /auth/*.
 */
import { z } from 'zod';
import { BlockchainName, Currency, MerchantPublicId, Uuid } from '../common.js';
import { messageEnvelope, successEnvelope } from '../envelope.js';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

const Email = z.email().max(255).toLowerCase();

export const RegisterBody = z.object({
  email: Email,
  password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
  merchantName: z.string().trim().min(1).max(100),
  blockchain: BlockchainName,
  acceptedCurrencies: z
    .array(Currency)
    .min(1)
    .refine((list) => new Set(list).size === list.length, { message: 'currencies must be unique' })
    .default(['USDC', 'EURC']),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

export const AuthUser = z.object({ id: Uuid, email: z.string() });
export type AuthUser = z.infer<typeof AuthUser>;

export const AuthMerchant = z.object({
  /** public merchant id (`<prefix>_live_<uuid>`) */
  id: MerchantPublicId,
  name: z.string(),
  blockchain: BlockchainName,
  accepted_currencies: z.array(Currency),
});
export type AuthMerchant = z.infer<typeof AuthMerchant>;

export const RegisteredAccount = z.object({ user: AuthUser, merchant: AuthMerchant });
export type RegisteredAccount = z.infer<typeof RegisteredAccount>;
/** 201 */
export const RegisterResponse = successEnvelope(RegisteredAccount);
export type RegisterResponse = z.infer<typeof RegisterResponse>;

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
export type TokenResponse = z.infer<typeof TokenResponse>;

export const RefreshBody = z.object({ refresh_token: z.string().min(1).max(512) });
export type RefreshBody = z.infer<typeof RefreshBody>;

export const LogoutBody = z.object({ refresh_token: z.string().min(1).max(512) });
export type LogoutBody = z.infer<typeof LogoutBody>;
export const LogoutResponse = messageEnvelope.extend({});
export type LogoutResponse = z.infer<typeof LogoutResponse>;

/** GET /auth/me */
export const MeResponse = successEnvelope(RegisteredAccount);
export type MeResponse = z.infer<typeof MeResponse>;
