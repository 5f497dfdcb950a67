import type { CreatedApiKey } from '@stablepay/contracts';
import { ok, okMessage } from '@stablepay/platform';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.js';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRoutes } from '../perimeter/route-handlers.js';
import { dashboardUser } from '../perimeter/authenticate.js';
import { idempotencyClaimOf } from '../perimeter/idempotency.js';
import { requestMeta } from '../perimeter/request-meta.js';

const createdAnswer = (data: CreatedApiKey) => ({
  success: true,
  message: 'API key created. Store it now: it will not be shown again.',
  data,
});

type ApiKeyRoutes = Pick<GatewayRoutes, 'createApiKey' | 'listApiKeys' | 'deleteApiKey'>;

export const apiKeyRoutes = (ctx: GatewayContext): ApiKeyRoutes => ({
  // With an Idempotency-Key, the answer is kept in the transaction that makes the key.
  createApiKey: async ({ body, auth, req, res }) => {
    const claim = idempotencyClaimOf(res);
    const created = await createApiKey(
      ctx,
      dashboardUser(auth),
      body,
      requestMeta(req, res),
      claim && ((trx, answer) => claim.completeIn(trx, 201, createdAnswer(answer))),
    );
    res.status(201).json(createdAnswer(created));
  },
  listApiKeys: async ({ auth, res }) => {
    ok(res, await listApiKeys(ctx, dashboardUser(auth).merchantId));
  },
  deleteApiKey: async ({ params, auth, req, res }) => {
    await revokeApiKey(ctx, dashboardUser(auth), params.id, requestMeta(req, res));
    okMessage(res, 'API key revoked');
  },
});
