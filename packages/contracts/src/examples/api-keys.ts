import type { ExampleTable } from './example.js';

export const apiKeysExamples: ExampleTable = {
  createApiKey: {
    request: {
      body: {
        name: 'Acme Coffee',
        scopes: ['payments:read'],
      },
    },
    responses: {
      201: {
        success: true,
        data: {
          id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          name: 'Order backend',
          key: 'acme_live_Qm9vdGhfa2V5X2Zvcl9kb2NzX29ubHlfMTIzNDU2Nzg5MA0',
          created_at: '2026-11-27T10:15:00.000Z',
          scopes: ['payments:read'],
        },
        message: 'API key created. Store it now: it will not be shown again.',
      },
    },
  },
  listApiKeys: {
    responses: {
      200: {
        success: true,
        data: [
          {
            id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
            name: 'Acme Coffee',
            last4: 'f3a9',
            created_at: '2026-11-27T10:15:00.000Z',
            scopes: ['payments:read'],
          },
        ],
      },
    },
  },
  deleteApiKey: {
    request: {
      params: {
        id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      200: {
        success: true,
        message: 'API key revoked',
      },
    },
  },
};
