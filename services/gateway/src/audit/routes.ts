import { ok } from '@stablepay/platform';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRoutes } from '../perimeter/route-handlers.js';
import { merchantAuditLog } from './audit-view.js';

export const auditRoutes = (ctx: GatewayContext): Pick<GatewayRoutes, 'listAuditLog'> => ({
  listAuditLog: async ({ merchant, query, res }) => {
    ok(res, await merchantAuditLog(ctx, merchant.merchantId, query));
  },
});
