/**
 * The reference for a database-bound path: pgbench running a script of the same statements against
 * the same PostgreSQL, with the same number of clients, in the same run as the bench it sits beside.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PgbenchResult {
  tps: number;
  latencyAvgMs: number;
  transactions: number;
  failed: number;
}

export const pgbench = async (opts: {
  url: string;
  script: string;
  clients: number;
  seconds: number;
  threads?: number;
}): Promise<PgbenchResult> => {
  const dir = mkdtempSync(join(tmpdir(), 'sp-pgbench-'));
  try {
    const file = join(dir, 'script.sql');
    writeFileSync(file, opts.script);
    const { stdout } = await run(
      'pgbench',
      [
        '-n',
        '-M',
        'extended',
        '-c',
        String(opts.clients),
        '-j',
        String(opts.threads ?? 2),
        '-T',
        String(opts.seconds),
        '-f',
        file,
        opts.url,
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const num = (re: RegExp) => Number(re.exec(stdout)?.[1] ?? NaN);
    return {
      tps: num(/tps = ([\d.]+)/),
      latencyAvgMs: num(/latency average = ([\d.]+) ms/),
      transactions: num(/number of transactions actually processed: (\d+)/),
      failed: num(/number of failed transactions: (\d+)/) || 0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
