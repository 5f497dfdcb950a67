import { ok, okMessage } from '@stablepay/platform';
import { createApiKey, listApiKeys, revokeApiKey } from '../../domain/api-keys.js';
import type { GatewayContext } from '../../gateway-context.js';
import type { GatewayRoutes } from '../handlers.js';
import { dashboardUser } from '../middleware/authenticate.js';
import { requestMeta } from '../request-meta.js';

type ApiKeyRoutes = Pick<GatewayRoutes, 'createApiKey' | 'listApiKeys' | 'deleteApiKey'>;

export const apiKeyRoutes = (ctx: GatewayContext): ApiKeyRoutes => ({
  createApiKey: async ({ body, auth, req, res }) => {
    const created = await createApiKey(ctx, dashboardUser(auth), body.name, requestMeta(req, res));
    ok(res, created, 201, 'API key created. Store it now: it will not be shown again.');
  },
  listApiKeys: async ({ auth, res }) => {
    ok(res, await listApiKeys(ctx, dashboardUser(auth).merchantId));
  },
  deleteApiKey: async ({ params, auth, req, res }) => {
    await revokeApiKey(ctx, dashboardUser(auth), params.id, requestMeta(req, res));
    okMessage(res, 'API key revoked');
  },
});
