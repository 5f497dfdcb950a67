import { expect } from 'chai';
import { z } from 'zod';
import { INTERNAL_TOKEN_HEADER, signInternalToken } from '../../src/auth/internal-token.js';
import { baseConfigShape, loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { InProcessBus } from '../../src/messaging/in-process-bus.js';
import { inboxMigration } from '../../src/messaging/inbox.js';
import { outboxMigration } from '../../src/messaging/outbox.js';
import { createMetrics } from '../../src/metrics.js';
import {
  defineService,
  startDefinedService,
  type RunningDefinedService,
} from '../../src/service-definition.js';
import { createTestDatabase, quietLogger, type TestDatabase } from '../../src/testing.js';

const CURRENT = 'current-internal-token-secret-0123456789';
const PREVIOUS = 'previous-internal-token-secret-012345678';
const UNKNOWN = 'unknown-internal-token-secret-0123456789';

const schema = z.object({
  ...baseConfigShape,
  PORT: z.coerce.number().default(0),
  DATABASE_SCHEMA: z.string().default('svc'),
});

describe('internal token rotation', () => {
  let testDb: TestDatabase;
  let service: RunningDefinedService<undefined>;

  before(async () => {
    testDb = await createTestDatabase();
    const config = loadConfig(schema, {
      INTERNAL_TOKEN_SECRET: CURRENT,
      INTERNAL_TOKEN_SECRET_PREVIOUS: PREVIOUS,
    }) as z.infer<typeof schema> & { DATABASE_SCHEMA: string };
    const definition = defineService({
      name: 'invoicing',
      migrations: [outboxMigration, inboxMigration],
      loadConfig: () => config,
      // No routes: whatever passes the internal token gets 404, whatever does not gets 401.
      catalogue: [],
      build: () => ({ routes: {} as never, context: undefined }),
    });
    service = await startDefinedService(definition, {
      config,
      deps: {
        db: await createDatabase({ url: testDb.url, schema: 'svc' }),
        bus: new InProcessBus(),
        logger: quietLogger(),
        metrics: createMetrics('svc', false),
      },
      port: 0,
      host: '127.0.0.1',
    });
  });
  after(async () => {
    await service?.stop();
    await testDb.drop();
  });

  const statusWith = async (secret: string, ttlSeconds = 60): Promise<number> => {
    const token = signInternalToken(secret, { caller: 'service' }, ttlSeconds);
    const res = await fetch(`${service.url}/anything`, { headers: { [INTERNAL_TOKEN_HEADER]: token } });
    await res.arrayBuffer();
    return res.status;
  };

  it('accepts tokens signed with the current or the previous secret', async () => {
    expect(await statusWith(CURRENT)).to.equal(404);
    expect(await statusWith(PREVIOUS)).to.equal(404);
  });

  it('refuses a token signed with any other secret, and an expired one signed with the previous', async () => {
    expect(await statusWith(UNKNOWN)).to.equal(401);
    expect(await statusWith(PREVIOUS, -10)).to.equal(401);
  });
});
