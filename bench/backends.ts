import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, testAmqpUrl, testQueuePrefix } from '@stablepay/platform/testing';

/**
 * What a bench's stack runs on: a fresh database, the broker's URL with a queue prefix of its own
 * (so a bench never shares queues with a test run), and a scratch folder for the stack's files.
 */
export const benchBackends = async () => ({
  db: await createTestDatabase(),
  amqpUrl: await testAmqpUrl(),
  prefix: testQueuePrefix(),
  varDir: mkdtempSync(join(tmpdir(), 'sp-bench-')),
});
