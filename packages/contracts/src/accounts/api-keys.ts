import { z } from 'zod';
import { messageEnvelope, successEnvelope } from '../shared/envelope.js';
import { IsoTimestamp, Uuid } from '../shared/scalars.js';
import { API_KEY_SCOPES, ApiKeyScope } from './scopes.js';

/**
 * What a key may do (an extension of the specification): at least one scope, each named once.
 * Left out, the key gets DEFAULT_API_KEY_SCOPES.
 */
export const ApiKeyScopes = z
  .array(ApiKeyScope)
  .min(1, 'Give at least one scope, or leave scopes out for the default set')
  .max(API_KEY_SCOPES.length)
  .refine((scopes) => new Set(scopes).size === scopes.length, 'Name each scope once');

export const CreateApiKeyBody = z.object({
  name: z.string().trim().min(1).max(50),
  scopes: ApiKeyScopes.optional(),
});
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

/** Creation result: the only time the full key (`<prefix>_live_<value>`) is returned. */
export const CreatedApiKey = z.object({
  id: Uuid,
  name: z.string(),
  key: z.string(),
  created_at: IsoTimestamp,
  /** What the key may do (extension). */
  scopes: z.array(ApiKeyScope),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeyListItem = z.object({
  id: Uuid,
  name: z.string(),
  /** last four characters of the key; the full key is never returned again */
  last4: z.string(),
  created_at: IsoTimestamp,
  /** What the key may do (extension). */
  scopes: z.array(ApiKeyScope),
});
export type ApiKeyListItem = z.infer<typeof ApiKeyListItem>;

/** POST /api-keys (201): `{success, message, data}`. */
export const CreateApiKeyResponse = successEnvelope(CreatedApiKey).extend({ message: z.string() });

export const ApiKeyListResponse = successEnvelope(z.array(ApiKeyListItem));

/** DELETE /api-keys/:id: `{success, message}`. */
export const DeleteApiKeyResponse = messageEnvelope.extend({ message: z.string() });

export const ApiKeyIdParams = z.object({ id: Uuid });
