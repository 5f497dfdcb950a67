import type { RequestHandler } from 'express';
import {
  CreateWebhookBody,
  UpdateWebhookBody,
  WebhookIdParams,
  type CreatedWebhookEndpoint,
  type RegeneratedWebhookSecret,
} from '@stablepay/contracts';
import { merchantOf, ok, okMessage, parseBody, parseParams } from '@stablepay/platform';
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

type Route = (ctx: NotifierContext) => RequestHandler;

/** GET /merchant-webhooks/api/list */
export const listRoute: Route = (ctx) => async (_req, res) => {
  const { merchantId } = merchantOf(res);
  ok(res, (await listMerchantEndpoints(ctx, merchantId)).map(endpointView));
};

/** POST /merchant-webhooks/api/create: 201 with the secret, which is never shown again. */
export const createRoute: Route = (ctx) => async (req, res) => {
  const { merchantId } = merchantOf(res);
  const body = parseBody(CreateWebhookBody, req);
  const { endpoint, secret } = await createEndpoint(ctx, merchantId, body);
  const data: CreatedWebhookEndpoint = { ...endpointView(endpoint), secret };
  ok(res, data, 201);
};

/** GET /merchant-webhooks/api/:id */
export const getRoute: Route = (ctx) => async (req, res) => {
  const { merchantId } = merchantOf(res);
  const { id } = parseParams(WebhookIdParams, req);
  ok(res, endpointView(await getEndpoint(ctx, merchantId, id)));
};

/** PUT /merchant-webhooks/api/:id */
export const updateRoute: Route = (ctx) => async (req, res) => {
  const { merchantId } = merchantOf(res);
  const { id } = parseParams(WebhookIdParams, req);
  const body = parseBody(UpdateWebhookBody, req);
  ok(res, endpointView(await changeEndpoint(ctx, merchantId, id, body)));
};

/** DELETE /merchant-webhooks/api/:id */
export const deleteRoute: Route = (ctx) => async (req, res) => {
  const { merchantId } = merchantOf(res);
  const { id } = parseParams(WebhookIdParams, req);
  await removeEndpoint(ctx, merchantId, id);
  okMessage(res, 'Webhook endpoint deleted');
};

/** POST /merchant-webhooks/api/:id/regenerate-secret */
export const regenerateSecretRoute: Route = (ctx) => async (req, res) => {
  const { merchantId } = merchantOf(res);
  const { id } = parseParams(WebhookIdParams, req);
  const data: RegeneratedWebhookSecret = { id, secret: await regenerateSecret(ctx, merchantId, id) };
  ok(res, data);
};
