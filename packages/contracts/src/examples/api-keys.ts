import type { ExampleTable } from './example.js';
import { byId, ok, sample } from './objects.js';

const scopes = ['payments:read'];

export const apiKeysExamples: ExampleTable = {
  createApiKey: {
    request: { body: { name: sample.merchantName, scopes } },
    responses: {
      201: {
        ...ok({
          id: sample.id,
          name: 'Order backend',
          key: 'acme_live_Qm9vdGhfa2V5X2Zvcl9kb2NzX29ubHlfMTIzNDU2Nzg5MA0',
          created_at: sample.at,
          scopes,
        }),
        message: 'API key created. Store it now: it will not be shown again.',
      },
    },
  },
  listApiKeys: {
    responses: {
      200: ok([{ id: sample.id, name: sample.merchantName, last4: 'f3a9', created_at: sample.at, scopes }]),
    },
  },
  deleteApiKey: { request: byId(), responses: { 200: { success: true, message: 'API key revoked' } } },
};
