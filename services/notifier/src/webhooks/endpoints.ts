import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  EventTypes,
  WEBHOOK_DESCRIPTION_MAX,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  type WebhookEndpoint,
  type WebhookEndpointActor,
} from '@stablepay/contracts';
import { AppError, createOnce, fieldDetail, notFound, type RequestKey } from '@stablepay/platform';
import { failPendingAttempts } from '../delivery/attempts-repo.js';
import {
  countEndpoints,
  deleteEndpoint,
  findEndpoint,
  findEndpointByRequestKey,
  insertEndpoint,
  listEndpoints,
  updateEndpoint,
  type EndpointRecord,
} from './endpoints-repo.js';
import { UrlRejected, checkWebhookUrl } from '../delivery/ssrf/url-policy.js';
import { DISABLED_ERROR } from '../delivery/attempt-outcome.js';
import type { NotifierContext } from '../context.js';
import { recordEndpointChange } from './endpoint-events.js';
import { generateWebhookSecret, openSecret, sealSecret } from './secrets.js';

export const endpointView = (e: EndpointRecord): WebhookEndpoint => ({
  id: e.id,
  url: e.url,
  events: e.events,
  description: e.description,
  is_active: e.isActive,
  failure_count: e.failureCount,
  created_at: e.createdAt.toISOString(),
});

/** The URL rules beyond the schema (HTTPS, public addresses only) as a 400 naming the `url` field. */
const acceptableUrl = async (ctx: NotifierContext, url: string): Promise<string> => {
  try {
    await checkWebhookUrl(url, ctx.urlPolicy, ctx.resolve);
    return url;
  } catch (err) {
    if (!(err instanceof UrlRejected)) throw err;
    throw new AppError('validation', 'Body validation failed', [fieldDetail('url', err.message, err.code)]);
  }
};

/** Scoped by merchant: another merchant's endpoint is not found, exactly like a missing one. */
const endpointOf = async (
  db: Knex | Knex.Transaction,
  merchantId: string,
  id: string,
  opts?: { forUpdate: boolean },
): Promise<EndpointRecord> => {
  const endpoint = await findEndpoint(db, merchantId, id, opts);
  if (!endpoint) throw notFound('Webhook endpoint');
  return endpoint;
};

export const getEndpoint = (ctx: NotifierContext, merchantId: string, id: string): Promise<EndpointRecord> =>
  endpointOf(ctx.db, merchantId, id);

/** The merchant's endpoint, locked for the rest of the transaction. */
export const lockMerchantEndpoint = (
  trx: Knex.Transaction,
  merchantId: string,
  id: string,
): Promise<EndpointRecord> => endpointOf(trx, merchantId, id, { forUpdate: true });

export const listMerchantEndpoints = (ctx: NotifierContext, merchantId: string): Promise<EndpointRecord[]> =>
  listEndpoints(ctx.db, merchantId);

/**
 * Creates an endpoint with a fresh secret; the plaintext secret is returned here and on a retry of
 * the same request. With the client's Idempotency-Key (`requestKey`), the endpoint that key already
 * made is answered again (with its current secret): the gateway forgets a key whose answer it never
 * got, so only this check stops a second endpoint, and a second delivery of every event.
 */
export const createEndpoint = (
  ctx: NotifierContext,
  merchantId: string,
  body: CreateWebhookBody,
  actor: WebhookEndpointActor,
  requestKey?: RequestKey,
): Promise<{ endpoint: EndpointRecord; secret: string }> =>
  createOnce({
    requestKey,
    uniqueIndex: 'webhook_endpoints_merchant_request_key_idx',
    find: async (key) => {
      const endpoint = await findEndpointByRequestKey(ctx.db, merchantId, key);
      return (
        endpoint && { made: endpointWithSecret(ctx, endpoint), fingerprint: endpoint.requestFingerprint }
      );
    },
    create: () => insertNewEndpoint(ctx, merchantId, body, actor, requestKey),
  });

const endpointWithSecret = (
  ctx: NotifierContext,
  endpoint: EndpointRecord,
): { endpoint: EndpointRecord; secret: string } => ({
  endpoint,
  secret: openSecret(endpoint.secretSealed, ctx.keks, endpoint.id),
});

const insertNewEndpoint = async (
  ctx: NotifierContext,
  merchantId: string,
  body: CreateWebhookBody,
  actor: WebhookEndpointActor,
  requestKey: RequestKey | undefined,
): Promise<{ endpoint: EndpointRecord; secret: string }> => {
  const url = await acceptableUrl(ctx, body.url);
  // A soft limit: two creations racing at the limit may both pass, which costs nothing.
  if ((await countEndpoints(ctx.db, merchantId)) >= ctx.limits.maxEndpoints) {
    throw new AppError('unprocessable', `At most ${ctx.limits.maxEndpoints} webhook endpoints per merchant`, [
      fieldDetail('', 'Delete an endpoint before creating another', 'endpoint_limit_reached'),
    ]);
  }
  const id = randomUUID();
  const secret = generateWebhookSecret();
  const endpoint = await ctx.db.transaction(async (trx) => {
    const inserted = await insertEndpoint(
      trx,
      {
        id,
        merchantId,
        url,
        events: body.events,
        description: body.description?.slice(0, WEBHOOK_DESCRIPTION_MAX) ?? null,
        secretSealed: sealSecret(secret, ctx.kek, id),
      },
      requestKey,
    );
    await recordEndpointChange(ctx, trx, EventTypes.WebhookEndpointCreated, inserted, actor);
    return inserted;
  });
  return { endpoint, secret };
};

/**
 * PUT: only the given fields change. `is_active: true` re-enables (and resets the failure count);
 * `is_active: false` disables, failing what was waiting for the endpoint.
 */
export const changeEndpoint = async (
  ctx: NotifierContext,
  merchantId: string,
  id: string,
  body: UpdateWebhookBody,
): Promise<EndpointRecord> => {
  const url = body.url === undefined ? undefined : await acceptableUrl(ctx, body.url);
  return ctx.db.transaction(async (trx) => {
    const current = await lockMerchantEndpoint(trx, merchantId, id);
    // Disabling a disabled endpoint keeps the reason it was disabled for.
    const disabling = body.is_active === false && current.isActive;
    const updated = await updateEndpoint(trx, id, {
      url,
      events: body.events,
      description: body.description,
      active: body.is_active === true ? true : disabling ? false : undefined,
    });
    if (disabling) await failPendingAttempts(trx, id, DISABLED_ERROR);
    return updated;
  });
};

export const removeEndpoint = async (
  ctx: NotifierContext,
  merchantId: string,
  id: string,
  actor: WebhookEndpointActor,
): Promise<void> => {
  await ctx.db.transaction(async (trx) => {
    const deleted = await deleteEndpoint(trx, merchantId, id);
    if (!deleted) throw notFound('Webhook endpoint');
    await recordEndpointChange(ctx, trx, EventTypes.WebhookEndpointDeleted, deleted, actor);
  });
  ctx.signingKeys.forget(id);
};

/** A new secret replaces the old at once: every attempt signed from now on uses the new one. */
export const regenerateSecret = async (
  ctx: NotifierContext,
  merchantId: string,
  id: string,
  actor: WebhookEndpointActor,
): Promise<string> => {
  const secret = await ctx.db.transaction(async (trx) => {
    const endpoint = await lockMerchantEndpoint(trx, merchantId, id);
    const fresh = generateWebhookSecret();
    // Bound to the id as the row holds it, whatever spelling the caller used.
    await updateEndpoint(trx, endpoint.id, { secretSealed: sealSecret(fresh, ctx.kek, endpoint.id) });
    await recordEndpointChange(ctx, trx, EventTypes.WebhookEndpointSecretRegenerated, endpoint, actor);
    return fresh;
  });
  return secret;
};
