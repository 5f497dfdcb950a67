import type { ExampleTable } from './example.js';
import { ok, page, sample } from './objects.js';

export const auditExamples: ExampleTable = {
  listAuditLog: {
    responses: {
      200: ok(
        page('entries', {
          id: '1042',
          action: 'user.registered',
          occurred_at: sample.at,
          actor: 'user',
          ip: '203.0.113.7',
          user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15',
          details: {},
        }),
      ),
    },
  },
};
