import { ok } from '@stablepay/platform';
import type { GatewayContext } from '../gateway-context.js';
import { dashboardUser } from '../perimeter/authenticate.js';
import { requestMeta } from '../perimeter/request-meta.js';
import type { GatewayRoutes } from '../perimeter/route-handlers.js';
import { loginMfa } from './challenge.js';
import { disableTotp, enableTotp, mfaStatus, regenerateRecoveryCodes, setupTotp } from './totp-settings.js';

type MfaRoutes = Pick<
  GatewayRoutes,
  'loginMfa' | 'getMfaStatus' | 'setupTotp' | 'enableTotp' | 'disableTotp' | 'regenerateRecoveryCodes'
>;

/** Two-factor sign-in: its second step and its settings (contracts `security-routes.ts`). */
export const mfaRoutes = (ctx: GatewayContext): MfaRoutes => ({
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
});
