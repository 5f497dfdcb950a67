import { readFileSync, readdirSync } from 'node:fs';

/** The p-th percentile (nearest rank) of an ascending list. */
export const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** User + system CPU time a process has used so far, in ms, from /proc (Linux). */
export const cpuMsOf = (pid: number | undefined): number => {
  if (pid === undefined) return NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};

/** Resident memory of a process, in MB, from /proc (Linux). */
export const rssMbOf = (pid: number | undefined): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
};

/**
 * CPU time (ms) used so far by every process on the machine, grouped: a pid in `named` under its
 * name, anything else under its command (postgres, beam.smp for RabbitMQ, anvil, node...). Two
 * readings subtracted show where a run's CPU went, including the database and the broker.
 */
export const cpuByGroup = (named: ReadonlyMap<number, string>): Map<string, number> => {
  const out = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const group = named.get(pid) ?? (comm.startsWith('kworker') ? 'kernel workers (writeback)' : comm);
      out.set(group, (out.get(group) ?? 0) + cpuMsOf(pid));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return out;
};

/** `after - before` per group, the largest first, as "name ms" pairs per unit of work. */
export const cpuSpentPer = (
  before: Map<string, number>,
  after: Map<string, number>,
  units: number,
  top = 10,
): string =>
  [...after]
    .map(([group, ms]) => [group, (ms - (before.get(group) ?? 0)) / units] as const)
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([group, ms]) => `${group} ${ms.toFixed(2)}`)
    .join(', ');
