import { ok, okMessage } from '@stablepay/platform';
import type { GatewayContext } from '../gateway-context.js';
import { dashboardUser } from '../perimeter/authenticate.js';
import { requestMeta } from '../perimeter/request-meta.js';
import type { GatewayRoutes } from '../perimeter/route-handlers.js';
import { confirmEmail, resendConfirmation } from './email-confirmation.js';
import { changePassword } from './password-change.js';
import { me, register } from './registration.js';
import { logout, refresh } from './sessions.js';
import { login } from './sign-in.js';

type AccountRoutes = Pick<
  GatewayRoutes,
  | 'register'
  | 'confirmEmail'
  | 'resendEmailConfirmation'
  | 'login'
  | 'refreshToken'
  | 'logout'
  | 'me'
  | 'changePassword'
>;

const RESEND_ANSWER =
  'If an account with this address awaits confirmation, a new link is on its way. Links can be sent once a minute.';

export const accountRoutes = (ctx: GatewayContext): AccountRoutes => ({
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
  changePassword: async ({ auth, body, req, res }) => {
    ok(res, await changePassword(ctx, dashboardUser(auth).userId, body, requestMeta(req, res)));
  },
});
