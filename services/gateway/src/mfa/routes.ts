import { ok } from '@stablepay/platform';
import { merchantAuditLog } from '../audit/audit-view.js';
import {
  disableTotp,
  enableTotp,
  loginMfa,
  mfaStatus,
  regenerateRecoveryCodes,
  setupTotp,
} from './totp-settings.js';
import { changePassword } from '../accounts/password-change.js';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRoutes } from '../perimeter/route-handlers.js';
import { dashboardUser } from '../perimeter/authenticate.js';
import { requestMeta } from '../perimeter/request-meta.js';

type SecurityRoutes = Pick<
  GatewayRoutes,
  | 'loginMfa'
  | 'getMfaStatus'
  | 'setupTotp'
  | 'enableTotp'
  | 'disableTotp'
  | 'regenerateRecoveryCodes'
  | 'changePassword'
  | 'listAuditLog'
>;

/** Two-factor sign-in, password change and the audit log (contracts `security-routes.ts`). */
export const securityRoutes = (ctx: GatewayContext): SecurityRoutes => ({
  loginMfa: async ({ body, req, res }) => {
    ok(res, await loginMfa(ctx, body, requestMeta(req, res)));
  },
  getMfaStatus: async ({ auth, res }) => {
    ok(res, await mfaStatus(ctx, dashboardUser(auth).userId));
  },
  setupTotp: async ({ auth, res }) => {
    ok(res, await setupTotp(ctx, dashboardUser(auth).userId));
  },
  enableTotp: async ({ auth, body, req, res }) => {
    ok(res, await enableTotp(ctx, dashboardUser(auth).userId, body.code, requestMeta(req, res)));
  },
  disableTotp: async ({ auth, body, req, res }) => {
    ok(res, await disableTotp(ctx, dashboardUser(auth).userId, body, requestMeta(req, res)));
  },
  regenerateRecoveryCodes: async ({ auth, body, req, res }) => {
    ok(res, await regenerateRecoveryCodes(ctx, dashboardUser(auth).userId, body.code, requestMeta(req, res)));
  },
  changePassword: async ({ auth, body, req, res }) => {
    ok(res, await changePassword(ctx, dashboardUser(auth).userId, body, requestMeta(req, res)));
  },
  listAuditLog: async ({ merchant, query, res }) => {
    ok(res, await merchantAuditLog(ctx, merchant.merchantId, query));
  },
});
