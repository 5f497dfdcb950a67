import { ApiKeyIdParams, CreateApiKeyBody } from '@stablepay/contracts';
import { ok, okMessage, parseBody, parseParams } from '@stablepay/platform';
import { createApiKey, listApiKeys, revokeApiKey } from '../../domain/api-keys.js';
import type { GatewayContext } from '../../gateway-context.js';
import type { GatewayHandlers } from '../handlers.js';
import { userOf } from '../middleware/authenticate.js';
import { requestMeta } from '../request-meta.js';

export const apiKeyHandlers = (ctx: GatewayContext): GatewayHandlers => ({
  createApiKey: async (req, res) => {
    const { name } = parseBody(CreateApiKeyBody, req);
    const created = await createApiKey(ctx, userOf(res), name, requestMeta(req, res));
    ok(res, created, 201, 'API key created. Store it now: it will not be shown again.');
  },
  listApiKeys: async (_req, res) => {
    ok(res, await listApiKeys(ctx, userOf(res).merchantId));
  },
  deleteApiKey: async (req, res) => {
    const { id } = parseParams(ApiKeyIdParams, req);
    await revokeApiKey(ctx, userOf(res), id, requestMeta(req, res));
    okMessage(res, 'API key revoked');
  },
});
