import { readFileSync } from 'node:fs';

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
