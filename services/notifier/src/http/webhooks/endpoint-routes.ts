import type { CreatedWebhookEndpoint, RegeneratedWebhookSecret } from '@stablepay/contracts';
import { ok, okMessage, type RouteHandlers } from '@stablepay/platform';
import type { NotifierContext } from '../../domain/context.js';
import {
  changeEndpoint,
  createEndpoint,
  endpointView,
  getEndpoint,
  listMerchantEndpoints,
  regenerateSecret,
  removeEndpoint,
} from '../../domain/endpoints.js';

type EndpointOperation =
  | 'listWebhooks'
  | 'createWebhook'
  | 'getWebhook'
  | 'updateWebhook'
  | 'deleteWebhook'
  | 'regenerateWebhookSecret';

/** The endpoints themselves: create, read, change, delete, and replace the signing secret. */
export const endpointRoutes = (ctx: NotifierContext): Pick<RouteHandlers<'notifier'>, EndpointOperation> => ({
  listWebhooks: async ({ merchant, res }) => {
    ok(res, (await listMerchantEndpoints(ctx, merchant.merchantId)).map(endpointView));
  },

  /** 201 with the secret, which is never shown again. */
  createWebhook: async ({ merchant, body, res }) => {
    const { endpoint, secret } = await createEndpoint(ctx, merchant.merchantId, body);
    const data: CreatedWebhookEndpoint = { ...endpointView(endpoint), secret };
    ok(res, data, 201);
  },

  getWebhook: async ({ merchant, params, res }) => {
    ok(res, endpointView(await getEndpoint(ctx, merchant.merchantId, params.id)));
  },

  updateWebhook: async ({ merchant, params, body, res }) => {
    ok(res, endpointView(await changeEndpoint(ctx, merchant.merchantId, params.id, body)));
  },

  deleteWebhook: async ({ merchant, params, res }) => {
    await removeEndpoint(ctx, merchant.merchantId, params.id);
    okMessage(res, 'Webhook endpoint deleted');
  },

  regenerateWebhookSecret: async ({ merchant, params, res }) => {
    const data: RegeneratedWebhookSecret = {
      id: params.id,
      secret: await regenerateSecret(ctx, merchant.merchantId, params.id),
    };
    ok(res, data);
  },
});
