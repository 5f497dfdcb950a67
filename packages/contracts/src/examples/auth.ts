import type { ExampleTable } from './example.js';
import { ok, sample } from './objects.js';

const REFRESH_TOKEN = 'rt_8Jd2kQ9mX4pL7vN1sB6wZ3cF0hT5yR2';

/** The token pair every sign-in answers with (password, second factor, refresh, password change). */
const signedIn = ok({
  access_token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIzZjZjMmE0ZSJ9.4pV3x0b0P5c1nq8K9Jp2mQ7rT6sU1vW8xY3zA0bC5dE',
  token_type: 'Bearer',
  expires_in: 1800,
  refresh_token: REFRESH_TOKEN,
  refresh_expires_in: 2592000,
});

const mfaStatus = ok({ totp_enabled: true, enabled_at: sample.at, recovery_codes_left: 1 });

const newRecoveryCodes = ok({
  recovery_codes: [
    '3a7f-91c2',
    '3e50-9427',
    '4221-968c',
    '45f2-98f1',
    '49c3-9b56',
    '4d94-9dbb',
    '5165-a020',
    '5536-a285',
    '5907-a4ea',
    '5cd8-a74f',
  ],
});

const CODE = '123456';

export const authExamples: ExampleTable = {
  register: {
    request: {
      body: {
        email: sample.email,
        password: sample.password,
        merchantName: sample.merchantName,
        blockchain: 'ETH',
        acceptedCurrencies: ['USDC'],
      },
    },
    responses: {
      201: ok({ email: sample.email, confirmation_required: true, confirmation_expires_in: 1800 }),
    },
  },
  confirmEmail: {
    request: { body: { token: 'Jq8tYV2mW0xkz3RZb6fPcA9dLr1uHs4e' } },
    responses: { 200: ok({ email: sample.email, email_confirmed: true }) },
  },
  resendEmailConfirmation: {
    request: { body: { email: sample.email } },
    responses: { 202: { success: true } },
  },
  login: {
    request: { body: { email: sample.email, password: sample.password } },
    responses: { 200: signedIn },
  },
  refreshToken: { request: { body: { refresh_token: REFRESH_TOKEN } }, responses: { 200: signedIn } },
  logout: { request: { body: { refresh_token: REFRESH_TOKEN } }, responses: { 200: { success: true } } },
  me: {
    responses: {
      200: ok({
        user: { id: sample.id, email: sample.email, email_confirmed: false },
        merchant: {
          id: sample.merchantId,
          name: sample.merchantName,
          blockchain: 'ETH',
          accepted_currencies: ['USDC'],
        },
      }),
    },
  },
  loginMfa: {
    request: {
      body: {
        mfa_token: 'eyJhbGciOiJIUzI1NiJ9.eyJwdXJwb3NlIjoibWZhIn0.1V9mK2pQ7xR4sT8uW3yZ6aB0cD5eF9gH',
        code: CODE,
      },
    },
    responses: { 200: signedIn },
  },
  getMfaStatus: { responses: { 200: mfaStatus } },
  setupTotp: {
    responses: {
      200: ok({ secret: 'whsec_c2VjcmV0LWtleS1ieXRlcy1mb3ItZG9jcw==', otpauth_url: sample.link }),
    },
  },
  enableTotp: { request: { body: { code: CODE } }, responses: { 200: newRecoveryCodes } },
  disableTotp: {
    request: { body: { password: sample.password, code: CODE } },
    responses: { 200: mfaStatus },
  },
  regenerateRecoveryCodes: { request: { body: { code: CODE } }, responses: { 200: newRecoveryCodes } },
  changePassword: {
    request: { body: { current_password: sample.password, new_password: sample.password } },
    responses: { 200: signedIn },
  },
};
