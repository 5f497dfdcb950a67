import type { OperationId, RouteOf } from '@stablepay/contracts';
import type { z } from 'zod';

type Endpoint<Op extends OperationId> = readonly [method: RouteOf<Op>['method'], path: RouteOf<Op>['path']];

/**
 * The catalogue's operations that the dashboard calls, each with where it is served. Only the
 * catalogue's types reach the bundle, not its schemas, so the method and path are written again
 * here; `satisfies` holds each one to the catalogue's, and a path that drifts does not compile.
 */
export const operations = {
  register: ['post', '/auth/register'],
  confirmEmail: ['post', '/auth/email-confirmation'],
  resendEmailConfirmation: ['post', '/auth/email-confirmation/resend'],
  login: ['post', '/auth/login'],
  loginMfa: ['post', '/auth/login/mfa'],
  refreshToken: ['post', '/auth/refresh'],
  logout: ['post', '/auth/logout'],
  me: ['get', '/auth/me'],
  getPublicChains: ['get', '/chains'],
  changePassword: ['post', '/auth/password'],
  getMfaStatus: ['get', '/auth/mfa'],
  setupTotp: ['post', '/auth/mfa/totp/setup'],
  enableTotp: ['post', '/auth/mfa/totp/enable'],
  disableTotp: ['post', '/auth/mfa/totp/disable'],
  regenerateRecoveryCodes: ['post', '/auth/mfa/recovery-codes'],
  listAuditLog: ['get', '/audit-log'],
  listApiKeys: ['get', '/api-keys'],
  createApiKey: ['post', '/api-keys'],
  deleteApiKey: ['delete', '/api-keys/:id'],
  listPayments: ['get', '/payments'],
  getPayment: ['get', '/payments/:id'],
  getWalletBalanceDashboard: ['get', '/wallets/balance'],
  getReconciliation: ['get', '/reconciliation/latest'],
  listBalanceTransactions: ['get', '/balance-transactions'],
  listRefundsDashboard: ['get', '/refunds'],
  getRefundDashboard: ['get', '/refunds/:id'],
  createRefundDashboard: ['post', '/refunds'],
  cancelRefundDashboard: ['post', '/refunds/:id/cancel'],
  listCheckoutSessionsDashboard: ['get', '/checkout-sessions'],
  getCheckoutSessionDashboard: ['get', '/checkout-sessions/:id'],
  createCheckoutSessionDashboard: ['post', '/checkout-sessions'],
  listWithdrawals: ['get', '/withdrawals'],
  getWithdrawal: ['get', '/withdrawals/:id'],
  createWithdrawal: ['post', '/withdrawals'],
  listWithdrawalAddresses: ['get', '/withdrawal-addresses'],
  addWithdrawalAddress: ['post', '/withdrawal-addresses'],
  removeWithdrawalAddress: ['delete', '/withdrawal-addresses/:id'],
  listInvoices: ['get', '/invoices'],
  getInvoicePdf: ['get', '/invoices/:id/pdf'],
  rectifyInvoice: ['post', '/invoices/:id/rectify'],
  getBillingProfile: ['get', '/billing-profile'],
  updateBillingProfile: ['put', '/billing-profile'],
  listWebhooksDashboard: ['get', '/merchant-webhooks'],
  createWebhookDashboard: ['post', '/merchant-webhooks'],
  listWebhookEventsDashboard: ['get', '/merchant-webhooks/events'],
  getWebhookDashboard: ['get', '/merchant-webhooks/:id'],
  updateWebhookDashboard: ['put', '/merchant-webhooks/:id'],
  deleteWebhookDashboard: ['delete', '/merchant-webhooks/:id'],
  regenerateWebhookSecretDashboard: ['post', '/merchant-webhooks/:id/regenerate-secret'],
  testWebhookDashboard: ['post', '/merchant-webhooks/:id/test'],
  getWebhookLogsDashboard: ['get', '/merchant-webhooks/:id/logs'],
  redeliverWebhookDashboard: ['post', '/merchant-webhooks/:id/deliveries/:deliveryId/redeliver'],
  replayWebhooksDashboard: ['post', '/merchant-webhooks/:id/replay'],
  listMerchantEventsDashboard: ['get', '/events'],
  getMerchantSettingsDashboard: ['get', '/merchant-settings'],
  updateMerchantSettingsDashboard: ['put', '/merchant-settings'],
  uploadMerchantLogoDashboard: ['put', '/merchant-settings/logo'],
  deleteMerchantLogoDashboard: ['delete', '/merchant-settings/logo'],
} as const satisfies { readonly [Op in OperationId]?: Endpoint<Op> };

export type Operation = keyof typeof operations;

type RequestPart<Op extends Operation, K extends string> =
  RouteOf<Op> extends { request: { [P in K]: infer S extends z.ZodType } } ? z.input<S> : undefined;

type SuccessSchema<Op extends Operation> =
  RouteOf<Op>['responses'][keyof RouteOf<Op>['responses']] extends infer R
    ? R extends { schema: infer S extends z.ZodType }
      ? S
      : never
    : never;

/** The `data` of the route's success envelope (undefined for a bare `{success, message}`). */
export type ResponseOf<Op extends Operation> =
  z.output<SuccessSchema<Op>> extends infer E ? (E extends { data: infer D } ? D : undefined) : never;

export type ParamsOf<Op extends Operation> = RequestPart<Op, 'params'>;
/** A query as the URL carries it: a field the schema reads from digits may be given as a number. */
type UrlValue<V> = V extends string ? (string extends V ? V | number : V) : V;
type UrlQuery<Q> = { [K in keyof Q]: UrlValue<Q[K]> };
export type QueryOf<Op extends Operation> =
  RequestPart<Op, 'query'> extends infer Q ? ([Q] extends [undefined] ? undefined : UrlQuery<Q>) : never;
export type BodyOf<Op extends Operation> = RequestPart<Op, 'body'>;

type Part<K extends string, T, Required extends boolean> = [T] extends [undefined]
  ? { [P in K]?: never }
  : Required extends true
    ? { [P in K]: T }
    : { [P in K]?: T };

/** What a call of the operation takes: its path parameters, query and body, as the catalogue has them. */
export type RequestOf<Op extends Operation> = Part<'params', ParamsOf<Op>, true> &
  Part<'query', QueryOf<Op>, false> &
  Part<'body', BodyOf<Op>, true>;

/** Arguments after the operation: optional when the operation takes nothing required. */
export type ArgsOf<Op extends Operation, Extra> =
  object extends RequestOf<Op> ? [request?: RequestOf<Op> & Extra] : [request: RequestOf<Op> & Extra];

const queryString = (query: object | undefined): string => {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== null && value !== '') q.set(key, String(value));
  return q.size ? `?${q}` : '';
};

/** The operation's method and URL path, its parameters filled in and its query appended. */
export const requestLine = <Op extends Operation>(
  op: Op,
  request: { params?: object; query?: object } = {},
): { method: string; path: string } => {
  const [method, template] = operations[op];
  const params = (request.params ?? {}) as Record<string, unknown>;
  const path = template.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
    encodeURIComponent(String(params[name])),
  );
  return { method: method.toUpperCase(), path: `${path}${queryString(request.query)}` };
};
