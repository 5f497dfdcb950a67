import type { ExampleTable } from './example.js';

export const authExamples: ExampleTable = {
  register: {
    request: {
      body: {
        email: 'buyer@example.com',
        password: 'correct horse battery staple',
        merchantName: 'Acme Coffee',
        blockchain: 'ETH',
        acceptedCurrencies: ['USDC'],
      },
    },
    responses: {
      201: {
        success: true,
        data: {
          email: 'buyer@example.com',
          confirmation_required: true,
          confirmation_expires_in: 1800,
        },
      },
    },
  },
  confirmEmail: {
    request: {
      body: {
        token: 'Jq8tYV2mW0xkz3RZb6fPcA9dLr1uHs4e',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          email: 'buyer@example.com',
          email_confirmed: true,
        },
      },
    },
  },
  resendEmailConfirmation: {
    request: {
      body: {
        email: 'buyer@example.com',
      },
    },
    responses: {
      202: {
        success: true,
      },
    },
  },
  login: {
    request: {
      body: {
        email: 'buyer@example.com',
        password: 'correct horse battery staple',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          access_token:
            'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIzZjZjMmE0ZSJ9.4pV3x0b0P5c1nq8K9Jp2mQ7rT6sU1vW8xY3zA0bC5dE',
          token_type: 'Bearer',
          expires_in: 1800,
          refresh_token: 'rt_8Jd2kQ9mX4pL7vN1sB6wZ3cF0hT5yR2',
          refresh_expires_in: 2592000,
        },
      },
    },
  },
  refreshToken: {
    request: {
      body: {
        refresh_token: 'rt_8Jd2kQ9mX4pL7vN1sB6wZ3cF0hT5yR2',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          access_token:
            'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIzZjZjMmE0ZSJ9.4pV3x0b0P5c1nq8K9Jp2mQ7rT6sU1vW8xY3zA0bC5dE',
          token_type: 'Bearer',
          expires_in: 1800,
          refresh_token: 'rt_8Jd2kQ9mX4pL7vN1sB6wZ3cF0hT5yR2',
          refresh_expires_in: 2592000,
        },
      },
    },
  },
  logout: {
    request: {
      body: {
        refresh_token: 'rt_8Jd2kQ9mX4pL7vN1sB6wZ3cF0hT5yR2',
      },
    },
    responses: {
      200: {
        success: true,
      },
    },
  },
  me: {
    responses: {
      200: {
        success: true,
        data: {
          user: {
            id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
            email: 'buyer@example.com',
            email_confirmed: false,
          },
          merchant: {
            id: 'acme_live_0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
            name: 'Acme Coffee',
            blockchain: 'ETH',
            accepted_currencies: ['USDC'],
          },
        },
      },
    },
  },
  loginMfa: {
    request: {
      body: {
        mfa_token: 'eyJhbGciOiJIUzI1NiJ9.eyJwdXJwb3NlIjoibWZhIn0.1V9mK2pQ7xR4sT8uW3yZ6aB0cD5eF9gH',
        code: '123456',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          access_token:
            'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIzZjZjMmE0ZSJ9.4pV3x0b0P5c1nq8K9Jp2mQ7rT6sU1vW8xY3zA0bC5dE',
          token_type: 'Bearer',
          expires_in: 1800,
          refresh_token: 'rt_8Jd2kQ9mX4pL7vN1sB6wZ3cF0hT5yR2',
          refresh_expires_in: 2592000,
        },
      },
    },
  },
  getMfaStatus: {
    responses: {
      200: {
        success: true,
        data: {
          totp_enabled: true,
          enabled_at: '2026-11-27T10:15:00.000Z',
          recovery_codes_left: 1,
        },
      },
    },
  },
  setupTotp: {
    responses: {
      200: {
        success: true,
        data: {
          secret: 'whsec_c2VjcmV0LWtleS1ieXRlcy1mb3ItZG9jcw==',
          otpauth_url: 'https://shop.example/x',
        },
      },
    },
  },
  enableTotp: {
    request: {
      body: {
        code: '123456',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
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
        },
      },
    },
  },
  disableTotp: {
    request: {
      body: {
        password: 'correct horse battery staple',
        code: '123456',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          totp_enabled: true,
          enabled_at: '2026-11-27T10:15:00.000Z',
          recovery_codes_left: 1,
        },
      },
    },
  },
  regenerateRecoveryCodes: {
    request: {
      body: {
        code: '123456',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
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
        },
      },
    },
  },
  changePassword: {
    request: {
      body: {
        current_password: 'correct horse battery staple',
        new_password: 'correct horse battery staple',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          access_token:
            'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIzZjZjMmE0ZSJ9.4pV3x0b0P5c1nq8K9Jp2mQ7rT6sU1vW8xY3zA0bC5dE',
          token_type: 'Bearer',
          expires_in: 1800,
          refresh_token: 'rt_8Jd2kQ9mX4pL7vN1sB6wZ3cF0hT5yR2',
          refresh_expires_in: 2592000,
        },
      },
    },
  },
};
