import pg from 'pg';

/** A moment when several statements had been running for a while at once, and what they waited on. */
export interface Stall {
  /** ms from the sampler's start */
  atMs: number;
  /** statements running longer than the threshold */
  statements: number;
  /** the longest of them, ms */
  longestMs: number;
  /** wait event (`type:event`, `cpu` when none) → how many of them */
  waits: Record<string, number>;
}

/**
 * Samples PostgreSQL's active statements every few milliseconds (pg_stat_activity, every database)
 * and keeps the moments when `minStatements` or more had run longer than `thresholdMs`, with their
 * wait events: a database stall (a slow WAL flush holds every commit behind it on `WALWrite`; a
 * relation's extension on `Lock:extend`; a hot page on `BufferContent`) then shows by name, where a
 * request's Server-Timing shows only that its database call was slow. One connection, polling; it
 * costs a little CPU of its own, so it runs only when asked for (PG_WAITS=1).
 */
export const sampleWaits = (
  url: string,
  { thresholdMs = 20, minStatements = 3, intervalMs = 4 } = {},
): { stop(): Promise<Stall[]> } => {
  const client = new pg.Client({ connectionString: url });
  const stalls: Stall[] = [];
  let running = true;
  const started = performance.now();
  const loop = (async () => {
    await client.connect();
    while (running) {
      const { rows } = await client.query<{ wait: string; ms: number }>(
        `select coalesce(wait_event_type || ':' || wait_event, 'cpu') as wait,
                extract(epoch from clock_timestamp() - query_start) * 1000 as ms
           from pg_stat_activity
          where state = 'active' and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      const long = rows.filter((r) => r.ms > thresholdMs);
      if (long.length >= minStatements) {
        const waits: Record<string, number> = {};
        for (const r of long) waits[r.wait] = (waits[r.wait] ?? 0) + 1;
        stalls.push({
          atMs: performance.now() - started,
          statements: long.length,
          longestMs: Math.max(...long.map((r) => r.ms)),
          waits,
        });
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop.catch(() => undefined);
      await client.end().catch(() => undefined);
      return stalls;
    },
  };
};

/**
 * The stalls of a run, one line each: samples closer than `gapMs` are one stall, described by its
 * start (s from the run's start), its longest statement and the wait events of its largest sample.
 */
export const describeStalls = (stalls: Stall[], thresholdMs = 20, gapMs = 50): string[] => {
  const merged: Stall[][] = [];
  for (const s of stalls) {
    const last = merged.at(-1);
    if (last && s.atMs - last.at(-1)!.atMs < gapMs) last.push(s);
    else merged.push([s]);
  }
  return merged.map((group) => {
    const widest = group.reduce((a, b) => (b.statements > a.statements ? b : a));
    const longest = Math.max(...group.map((s) => s.longestMs));
    const waits = Object.entries(widest.waits)
      .sort((a, b) => b[1] - a[1])
      .map(([w, n]) => `${w} ${n}`)
      .join(', ');
    return `${(group[0]!.atMs / 1000).toFixed(2)} s: ${widest.statements} statements running > ${thresholdMs} ms, the longest ${longest.toFixed(0)} ms; waiting on ${waits}`;
  });
};
