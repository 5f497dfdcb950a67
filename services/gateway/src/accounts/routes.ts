import { ok, okMessage } from '@stablepay/platform';
import { login, logout, me, refresh, register } from './sign-in.js';
import { confirmEmail, resendConfirmation } from './email-confirmation.js';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRoutes } from '../perimeter/route-handlers.js';
import { dashboardUser } from '../perimeter/authenticate.js';
import { requestMeta } from '../perimeter/request-meta.js';

type AuthRoutes = Pick<
  GatewayRoutes,
  'register' | 'confirmEmail' | 'resendEmailConfirmation' | 'login' | 'refreshToken' | 'logout' | 'me'
>;

const RESEND_ANSWER =
  'If an account with this address awaits confirmation, a new link is on its way. Links can be sent once a minute.';

export const authRoutes = (ctx: GatewayContext): AuthRoutes => ({
  register: async ({ body, req, res }) => {
    ok(res, await register(ctx, body, requestMeta(req, res)), 201);
  },
  confirmEmail: async ({ body, req, res }) => {
    ok(res, await confirmEmail(ctx, body, requestMeta(req, res)));
  },
  resendEmailConfirmation: async ({ body, req, res }) => {
    await resendConfirmation(ctx, body, requestMeta(req, res));
    okMessage(res, RESEND_ANSWER, 202);
  },
  login: async ({ body, req, res }) => {
    ok(res, await login(ctx, body, requestMeta(req, res)));
  },
  refreshToken: async ({ body, req, res }) => {
    ok(res, await refresh(ctx, body, requestMeta(req, res)));
  },
  logout: async ({ body, req, res }) => {
    await logout(ctx, body, requestMeta(req, res));
    okMessage(res, 'Logged out');
  },
  me: async ({ auth, res }) => {
    ok(res, await me(ctx, dashboardUser(auth).userId));
  },
});
