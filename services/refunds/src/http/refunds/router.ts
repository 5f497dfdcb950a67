import { Router } from 'express';
import type { RefundsContext } from '../../domain/context.js';
import { apiKeyOnly } from '../auth.js';
import { cancelRefundRoute } from './cancel.js';
import { createRefundRoute } from './create.js';
import { refundDetailRoute } from './detail.js';
import { listRefundsRoute } from './list.js';

/** Static segments before parameters: /refunds/api/list must not be taken for /refunds/api/:id. */
export const refundsRouter = (ctx: RefundsContext): Router => {
  const r = Router();
  r.post('/refunds/api/create', apiKeyOnly, createRefundRoute(ctx));
  r.get('/refunds/api/list', apiKeyOnly, listRefundsRoute(ctx));
  r.get('/refunds/api/:id', apiKeyOnly, refundDetailRoute(ctx));
  r.post('/refunds/api/:id/cancel', apiKeyOnly, cancelRefundRoute(ctx));
  return r;
};
