/**
 * Resident memory of each service idle: every service its own process on PostgreSQL and RabbitMQ
 * (as deployed), read from /proc after the stack has started and then sat still for IDLE_SECONDS.
 * The reference: a bare `node -e` process in the same run.
 *
 *   npm run build && node --import tsx bench/memory-idle.ts      (IDLE_SECONDS=20)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@stablepay/platform/testing';
import { benchBroker } from './backends.js';
import { startProcessStack } from '@stablepay/stack';
import { rssMbOf } from './stats.js';

const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 20);

const db = await createTestDatabase();
const broker = await benchBroker();
const varDir = mkdtempSync(join(tmpdir(), 'sp-mem-'));
const bare = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
const stack = await startProcessStack({
  varDir,
  databaseUrl: db.url,
  amqpUrl: broker.amqpUrl,
  amqpPrefix: broker.prefix,
});
try {
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const rows = stack.services.map((s) => ({ process: s.name, 'RSS MB': rssMbOf(s.child.pid) }));
  rows.push({ process: 'reference: bare node process', 'RSS MB': rssMbOf(bare.pid) });
  console.log(`idle RSS after ${IDLE_SECONDS} s, node ${process.version}`);
  console.table(rows);
} finally {
  bare.kill();
  await stack.stop();
  await db.drop();
  await broker.release();
  rmSync(varDir, { recursive: true, force: true });
}
