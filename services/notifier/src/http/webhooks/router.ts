import { Router } from 'express';
import type { NotifierContext } from '../../domain/context.js';
import { apiKeyOnly } from '../auth.js';
import { eventsRoute, logsRoute, redeliverRoute, replayRoute, testRoute } from './delivery-routes.js';
import {
  createRoute,
  deleteRoute,
  getRoute,
  listRoute,
  regenerateSecretRoute,
  updateRoute,
} from './endpoint-routes.js';

const BASE = '/merchant-webhooks/api';

/** Static segments before parameters: /list and /events must not be taken for /:id. */
export const webhooksRouter = (ctx: NotifierContext): Router => {
  const r = Router();
  r.use(BASE, apiKeyOnly);
  r.get(`${BASE}/list`, listRoute(ctx));
  r.post(`${BASE}/create`, createRoute(ctx));
  r.get(`${BASE}/events`, eventsRoute);
  r.get(`${BASE}/:id`, getRoute(ctx));
  r.put(`${BASE}/:id`, updateRoute(ctx));
  r.delete(`${BASE}/:id`, deleteRoute(ctx));
  r.post(`${BASE}/:id/regenerate-secret`, regenerateSecretRoute(ctx));
  r.post(`${BASE}/:id/test`, testRoute(ctx));
  r.get(`${BASE}/:id/logs`, logsRoute(ctx));
  r.post(`${BASE}/:id/deliveries/:deliveryId/redeliver`, redeliverRoute(ctx));
  r.post(`${BASE}/:id/replay`, replayRoute(ctx));
  return r;
};
