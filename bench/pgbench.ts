/**
 * The reference for a database-bound path: pgbench running a script of the same statements against
 * the same PostgreSQL, with the same number of clients, in the same run as the bench it sits beside.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PgbenchResult {
  tps: number;
  latencyAvgMs: number;
  transactions: number;
  failed: number;
  /** With `rate`: each transaction's latency from its scheduled start (schedule lag included), ms. */
  latenciesMs: number[];
}

export const pgbench = async (opts: {
  url: string;
  script: string;
  clients: number;
  seconds: number;
  threads?: number;
  /** Transactions per second in all, started on a schedule (pgbench -R), each one's latency logged. */
  rate?: number;
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
        ...(opts.rate ? ['-R', String(opts.rate), '-l', '--log-prefix', join(dir, 'tx')] : []),
        opts.url,
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    // A log line: client, transaction, latency µs, script, epoch s, epoch µs, schedule lag µs.
    const latenciesMs = readdirSync(dir)
      .filter((f) => f.startsWith('tx'))
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n'))
      .filter(Boolean)
      .map((line) => {
        const fields = line.split(' ').map(Number);
        return (fields[2]! + (fields[6] ?? 0)) / 1000;
      });
    const num = (re: RegExp) => Number(re.exec(stdout)?.[1] ?? NaN);
    return {
      tps: num(/tps = ([\d.]+)/),
      latencyAvgMs: num(/latency average = ([\d.]+) ms/),
      transactions: num(/number of transactions actually processed: (\d+)/),
      failed: num(/number of failed transactions: (\d+)/) || 0,
      latenciesMs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
