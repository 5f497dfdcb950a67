/**
 * `npm start` to ready (devnet.json written and the demo merchant printed), twice: the first start of
 * this checkout (after `npm ci` on a fresh clone: pages not built yet) and a restart on the same data.
 *
 *   git clone <repo> /tmp/fresh && cd /tmp/fresh && npm ci && node --import tsx bench/start-time.ts
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

const varDir = mkdtempSync(join(tmpdir(), 'sp-start-bench-'));

const startOnce = async (): Promise<number> => {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: { ...process.env, VAR_DIR: varDir, LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${out}`);
    if (existsSync(join(varDir, 'devnet.json')) && out.includes('Demo API key')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const ready = performance.now() - started;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  return ready;
};

try {
  const first = await startOnce();
  const restart = await startOnce();
  console.log(`npm start to ready, node ${process.version}, ${cpus().length} cores`);
  console.table([
    { run: 'first start of this checkout', seconds: (first / 1000).toFixed(1) },
    { run: 'restart on the same data', seconds: (restart / 1000).toFixed(1) },
  ]);
} finally {
  rmSync(varDir, { recursive: true, force: true });
}
