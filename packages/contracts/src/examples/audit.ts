import type { ExampleTable } from './example.js';

export const auditExamples: ExampleTable = {
  listAuditLog: {
    responses: {
      200: {
        success: true,
        data: {
          entries: [
            {
              id: '1042',
              action: 'user.registered',
              occurred_at: '2026-11-27T10:15:00.000Z',
              actor: 'user',
              ip: '203.0.113.7',
              user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15',
              details: {},
            },
          ],
          total: 1,
          limit: 20,
          offset: 0,
        },
      },
    },
  },
};
