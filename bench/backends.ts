import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestDatabase,
  createTestVhost,
  testAmqpUrl,
  testQueuePrefix,
} from '@stablepay/platform/testing';

/**
 * What a bench's stack runs on: a fresh database, a broker vhost of its own (a remote broker, where
 * no vhost can be made, gets a queue prefix of its own instead), and a scratch folder for the
 * stack's files. `release` removes all three: every run declares some forty queues, and a broker
 * that keeps them all runs out of file handles after a few dozen runs.
 */
export const benchBackends = async () => {
  const db = await createTestDatabase();
  const broker = await benchBroker();
  const varDir = mkdtempSync(join(tmpdir(), 'sp-bench-'));
  return {
    db,
    amqpUrl: broker.amqpUrl,
    prefix: broker.prefix,
    varDir,
    release: async () => {
      await db.drop();
      await broker.release();
      rmSync(varDir, { recursive: true, force: true });
    },
  };
};

/** The broker part alone: a vhost of the bench's own (or a queue prefix), removed by `release`. */
export const benchBroker = async () => {
  const broker = await testAmqpUrl();
  const vhost = await createTestVhost(broker);
  return {
    amqpUrl: vhost?.url ?? broker,
    prefix: testQueuePrefix(),
    release: async () => {
      await vhost?.drop();
    },
  };
};
