import { LoginBody, LogoutBody, RefreshBody, RegisterBody } from '@stablepay/contracts';
import { ok, okMessage, parseBody } from '@stablepay/platform';
import { login, logout, me, refresh, register } from '../../domain/accounts.js';
import type { GatewayContext } from '../../gateway-context.js';
import type { GatewayHandlers } from '../handlers.js';
import { userOf } from '../middleware/authenticate.js';
import { requestMeta } from '../request-meta.js';

export const authHandlers = (ctx: GatewayContext): GatewayHandlers => ({
  register: async (req, res) => {
    ok(res, await register(ctx, parseBody(RegisterBody, req), requestMeta(req, res)), 201);
  },
  login: async (req, res) => {
    ok(res, await login(ctx, parseBody(LoginBody, req), requestMeta(req, res)));
  },
  refreshToken: async (req, res) => {
    ok(res, await refresh(ctx, parseBody(RefreshBody, req), requestMeta(req, res)));
  },
  logout: async (req, res) => {
    await logout(ctx, parseBody(LogoutBody, req), requestMeta(req, res));
    okMessage(res, 'Logged out');
  },
  me: async (_req, res) => {
    ok(res, await me(ctx, userOf(res).userId));
  },
});
