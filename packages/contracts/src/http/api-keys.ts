import { z } from 'zod';
import { IsoTimestamp, Uuid } from '../common.js';
import { messageEnvelope, successEnvelope } from '../envelope.js';

export const CreateApiKeyBody = z.object({
  name: z.string().trim().min(1).max(50),
});
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

/** Creation result: the only time the full key (`<prefix>_live_<value>`) is returned. */
export const CreatedApiKey = z.object({
  id: Uuid,
  name: z.string(),
  key: z.string(),
  created_at: IsoTimestamp,
});
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeyListItem = z.object({
  id: Uuid,
  name: z.string(),
  /** last four characters of the key; the full key is never returned again */
  last4: z.string(),
  created_at: IsoTimestamp,
});
export type ApiKeyListItem = z.infer<typeof ApiKeyListItem>;

/** POST /api-keys (201): `{success, message, data}`. */
export const CreateApiKeyResponse = successEnvelope(CreatedApiKey).extend({ message: z.string() });
export type CreateApiKeyResponse = z.infer<typeof CreateApiKeyResponse>;

export const ApiKeyListResponse = successEnvelope(z.array(ApiKeyListItem));
export type ApiKeyListResponse = z.infer<typeof ApiKeyListResponse>;

/** DELETE /api-keys/:id: `{success, message}`. */
export const DeleteApiKeyResponse = messageEnvelope.extend({ message: z.string() });
export type DeleteApiKeyResponse = z.infer<typeof DeleteApiKeyResponse>;

export const ApiKeyIdParams = z.object({ id: Uuid });
export type ApiKeyIdParams = z.infer<typeof ApiKeyIdParams>;
