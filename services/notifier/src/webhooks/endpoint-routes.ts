import type { CreatedWebhookEndpoint, RegeneratedWebhookSecret } from '@stablepay/contracts';
import { ok, okMessage, requestKeyOf, type HandlerOf } from '@stablepay/platform';
import type { NotifierContext } from '../context.js';
import {
  changeEndpoint,
  createEndpoint,
  endpointView,
  getEndpoint,
  listMerchantEndpoints,
  regenerateSecret,
  removeEndpoint,
} from './endpoints.js';
import { endpointActor } from './actor.js';

/**
 * The endpoints themselves: create, read, change, delete, and replace the signing secret. Each
 * handler serves the API-key route and its dashboard twin (bearer token, same path without /api).
 */
export const endpointRoutes = (ctx: NotifierContext) => {
  const list: HandlerOf<'listWebhooks'> & HandlerOf<'listWebhooksDashboard'> = async ({ merchant, res }) => {
    ok(res, (await listMerchantEndpoints(ctx, merchant.merchantId)).map(endpointView));
  };

  /**
   * 201 with the secret, which is shown again only to a retry with the same Idempotency-Key (the
   * endpoint that key made, 201 as the gateway replays it).
   */
  const create: HandlerOf<'createWebhook'> & HandlerOf<'createWebhookDashboard'> = async ({
    merchant,
    body,
    req,
    res,
  }) => {
    const { endpoint, secret } = await createEndpoint(
      ctx,
      merchant.merchantId,
      body,
      endpointActor(res),
      requestKeyOf(req, body),
    );
    const data: CreatedWebhookEndpoint = { ...endpointView(endpoint), secret };
    ok(res, data, 201);
  };

  const get: HandlerOf<'getWebhook'> & HandlerOf<'getWebhookDashboard'> = async ({
    merchant,
    params,
    res,
  }) => {
    ok(res, endpointView(await getEndpoint(ctx, merchant.merchantId, params.id)));
  };

  const update: HandlerOf<'updateWebhook'> & HandlerOf<'updateWebhookDashboard'> = async ({
    merchant,
    params,
    body,
    res,
  }) => {
    ok(res, endpointView(await changeEndpoint(ctx, merchant.merchantId, params.id, body)));
  };

  const remove: HandlerOf<'deleteWebhook'> & HandlerOf<'deleteWebhookDashboard'> = async ({
    merchant,
    params,
    res,
  }) => {
    await removeEndpoint(ctx, merchant.merchantId, params.id, endpointActor(res));
    okMessage(res, 'Webhook endpoint deleted');
  };

  const regenerate: HandlerOf<'regenerateWebhookSecret'> &
    HandlerOf<'regenerateWebhookSecretDashboard'> = async ({ merchant, params, res }) => {
    const data: RegeneratedWebhookSecret = {
      id: params.id,
      secret: await regenerateSecret(ctx, merchant.merchantId, params.id, endpointActor(res)),
    };
    ok(res, data);
  };

  return {
    listWebhooks: list,
    createWebhook: create,
    getWebhook: get,
    updateWebhook: update,
    deleteWebhook: remove,
    regenerateWebhookSecret: regenerate,
  };
};
