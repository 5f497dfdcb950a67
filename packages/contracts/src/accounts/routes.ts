import { accepted, created, ok } from '../catalogue/responses.js';
import { routeTable } from '../catalogue/route-spec.js';
import {
  ApiKeyIdParams,
  ApiKeyListResponse,
  CreateApiKeyBody,
  CreateApiKeyResponse,
  DeleteApiKeyResponse,
} from './api-keys.js';
import {
  ConfirmEmailBody,
  ConfirmEmailResponse,
  LoginBody,
  LogoutBody,
  LogoutResponse,
  MeResponse,
  RefreshBody,
  RegisterBody,
  RegisterResponse,
  ResendConfirmationBody,
  ResendConfirmationResponse,
  TokenResponse,
} from './auth.js';
import { LoginResponse } from './mfa.js';

const auth = { service: 'gateway', tags: ['Auth'], extension: true } as const;

const keys = { service: 'gateway', tags: ['API keys'], auth: 'jwt' } as const;

/** Sign-up, sign-in and API keys: the gateway's own routes. */
export const accountRoutes = routeTable([
  {
    ...auth,
    operationId: 'register',
    method: 'post',
    path: '/auth/register',
    auth: 'public',
    summary: 'Create a user and its merchant; a confirmation link is e-mailed',
    description:
      "Answers alike whether or not the address already has an account (its owner is e-mailed instead), so it never reveals which addresses are registered. Until the e-mailed link is followed the account can sign in, but is sent no e-mail and cannot withdraw. `language` (en, de, fr, es, it) is the page's: the account's e-mails are written in it.",
    request: { body: RegisterBody },
    responses: created('Registration accepted; check the e-mail', RegisterResponse),
  },
  {
    ...auth,
    operationId: 'confirmEmail',
    method: 'post',
    path: '/auth/email-confirmation',
    auth: 'public',
    summary: "Confirm the account's e-mail address with the token of the e-mailed link",
    description:
      'A token is single use and expires 24 hours after it was sent. An unknown, used or expired token is a 422 (`confirmation_invalid` or `confirmation_expired`).',
    request: { body: ConfirmEmailBody },
    responses: ok('Address confirmed', ConfirmEmailResponse),
  },
  {
    ...auth,
    operationId: 'resendEmailConfirmation',
    method: 'post',
    path: '/auth/email-confirmation/resend',
    auth: 'public',
    summary: 'E-mail a new confirmation link to an account that awaits confirmation',
    description:
      'Answers 202 alike for every address. At most one link per minute and five per hour are sent to an account; requests beyond that are answered the same and send nothing.',
    request: { body: ResendConfirmationBody },
    responses: accepted('Accepted', ResendConfirmationResponse),
  },
  {
    ...auth,
    operationId: 'login',
    method: 'post',
    path: '/auth/login',
    auth: 'public',
    summary: 'Obtain an access token and a refresh token (or a two-factor challenge)',
    description:
      'Signs in with e-mail and password and answers a token pair: the access token for `Authorization: Bearer` and a single-use refresh token. When two-factor sign-in is on, answers instead an MFA challenge (`mfa_token`) to complete with POST /auth/login/mfa. A wrong e-mail and a wrong password are the same 401; repeated failures lock the account for a while (429, `details[0].code` `account_locked`).',
    request: { body: LoginBody },
    responses: ok('Tokens, or a two-factor challenge', LoginResponse),
  },
  {
    ...auth,
    operationId: 'refreshToken',
    method: 'post',
    path: '/auth/refresh',
    auth: 'public',
    summary: 'Exchange a refresh token for a new token pair (the old refresh token is revoked)',
    description:
      'Exchanges a refresh token for a new token pair. A refresh token works once: the answer carries a new one and the old one is revoked, so a stolen token that was already used is refused (401).',
    request: { body: RefreshBody },
    responses: ok('Tokens', TokenResponse),
  },
  {
    ...auth,
    operationId: 'logout',
    method: 'post',
    path: '/auth/logout',
    auth: 'public',
    summary: 'Revoke a refresh token',
    description:
      'Revokes the refresh token, so it cannot be exchanged again; access tokens already issued expire on their own.',
    request: { body: LogoutBody },
    responses: ok('Logged out', LogoutResponse),
  },
  {
    ...auth,
    operationId: 'me',
    method: 'get',
    path: '/auth/me',
    auth: 'jwt',
    summary: 'The signed-in user and merchant',
    description:
      'The signed-in user and their merchant: id, name, chain, accepted currencies and whether the e-mail address is confirmed.',
    responses: ok('User and merchant', MeResponse),
  },
  {
    ...keys,
    operationId: 'createApiKey',
    method: 'post',
    path: '/api-keys',
    summary: 'Create an API key (the full key is returned only here)',
    description:
      'Creates a key for server-to-server calls. The key is in this answer only: store it now (only a digest is kept). `scopes` limits what it may do; without `scopes` it holds every scope but `withdrawals:write`. Only a dashboard session may manage keys: an API key here is 403.',
    request: { body: CreateApiKeyBody },
    responses: created('Key created', CreateApiKeyResponse),
  },
  {
    ...keys,
    operationId: 'listApiKeys',
    method: 'get',
    path: '/api-keys',
    summary: 'List API keys (masked)',
    description:
      "The merchant's active keys, newest first, with their scopes and last four characters, never the key itself.",
    responses: ok('Keys', ApiKeyListResponse),
  },
  {
    ...keys,
    operationId: 'deleteApiKey',
    method: 'delete',
    path: '/api-keys/:id',
    summary: 'Revoke an API key immediately',
    description:
      "Revokes the key at once: later calls with it are 401. Another merchant's key, or one already revoked, is 404.",
    request: { params: ApiKeyIdParams },
    responses: ok('Key revoked', DeleteApiKeyResponse),
  },
]);
