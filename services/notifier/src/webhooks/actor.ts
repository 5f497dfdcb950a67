import type { Response } from 'express';
import type { WebhookEndpointActor } from '@stablepay/contracts';
import { AppError } from '@stablepay/platform';

/**
 * Who is changing an endpoint, from the internal token: the gateway names the dashboard user or the
 * API key of every merchant request. A token that names neither cannot be recorded, so it changes
 * nothing.
 */
export const endpointActor = (res: Response): WebhookEndpointActor => {
  const auth = res.locals.auth;
  if (auth?.caller === 'user' && auth.userId) {
    return { callerKind: 'user', userId: auth.userId, apiKeyId: null };
  }
  if (auth?.caller === 'api_key' && auth.apiKeyId) {
    return { callerKind: 'api_key', userId: null, apiKeyId: auth.apiKeyId };
  }
  throw new AppError('unauthorized', 'The internal token names no user or API key');
};
