import { randomUUID } from 'node:crypto';
import type { TokenPair } from '@stablepay/contracts';
import type { Knex } from 'knex';
import { randomSecret, sha256Hex } from '../crypto/digests.js';
import type { GatewayContext } from '../gateway-context.js';
import type { MerchantRow } from '../merchants/merchants-repo.js';
import { signAccessToken } from './access-tokens.js';
import { insertRefreshToken } from './refresh-tokens-repo.js';
import type { UserRow } from './users-repo.js';

/** Refresh tokens are opaque random strings; the database keeps their SHA-256 only. */
export const refreshTokenDigest = (token: string): string => sha256Hex(token);

/**
 * A new session's (or a rotation's) access and refresh tokens. Its own module: sign-in, the second
 * step of two-factor sign-in, refresh and password change all end here.
 */
export const issueTokens = async (
  ctx: GatewayContext,
  db: Knex | Knex.Transaction,
  user: UserRow,
  merchant: MerchantRow,
  familyId: string,
  /** When the user last proved who they are: now at a sign-in, the session's own time at a refresh. */
  authenticatedAt: Date | null = new Date(),
): Promise<TokenPair> => {
  const { config } = ctx;
  const refreshToken = randomSecret();
  await insertRefreshToken(db, {
    id: randomUUID(),
    family_id: familyId,
    user_id: user.id,
    token_digest: refreshTokenDigest(refreshToken),
    expires_at: new Date(Date.now() + config.REFRESH_TOKEN_TTL_SECONDS * 1000),
    authenticated_at: authenticatedAt,
  });
  const accessToken = signAccessToken(
    config.JWT_SECRET,
    {
      userId: user.id,
      merchantId: merchant.id,
      merchantPublicId: merchant.public_id,
      ...(authenticatedAt && { authTime: Math.floor(authenticatedAt.getTime() / 1000) }),
    },
    config.ACCESS_TOKEN_TTL_SECONDS,
  );
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: config.ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: refreshToken,
    refresh_expires_in: config.REFRESH_TOKEN_TTL_SECONDS,
  };
};
