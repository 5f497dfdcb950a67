/**
 * What a service's /metrics says about a run: scraped before and after, the difference of the
 * cumulative histograms is the run's own distribution (the event loop's delay, the pool's waits).
 */

/** One scrape: sample name with its labels (as written) → value. */
export type Scrape = Map<string, number>;

export const scrapeMetrics = async (baseUrl: string, token: string): Promise<Scrape> => {
  const res = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`${baseUrl}/metrics answered ${res.status}`);
  const out: Scrape = new Map();
  for (const line of (await res.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
};

/** Buckets of `name` (one series: no labels but `le` and `service`), cumulative counts after − before. */
const bucketsOf = (name: string, before: Scrape, after: Scrape): Array<[number, number]> => {
  const out: Array<[number, number]> = [];
  for (const [key, value] of after) {
    const m = new RegExp(`^${name}_bucket\\{le="([^"]+)"`).exec(key);
    if (!m) continue;
    out.push([m[1] === '+Inf' ? Infinity : Number(m[1]), value - (before.get(key) ?? 0)]);
  }
  return out.sort((a, b) => a[0] - b[0]);
};

/**
 * The p-th percentile of the run's observations, interpolated inside its bucket (as Prometheus'
 * histogram_quantile does), in ms; undefined when nothing was observed.
 */
export const histogramPercentileMs = (
  name: string,
  p: number,
  before: Scrape,
  after: Scrape,
): number | undefined => {
  const buckets = bucketsOf(name, before, after);
  const total = buckets.at(-1)?.[1] ?? 0;
  if (total === 0) return undefined;
  const rank = (p / 100) * total;
  let lower = 0;
  let below = 0;
  for (const [upper, cumulative] of buckets) {
    if (cumulative >= rank) {
      if (upper === Infinity) return lower * 1000;
      const inside = cumulative - below;
      return (lower + (upper - lower) * (inside === 0 ? 0 : (rank - below) / inside)) * 1000;
    }
    lower = upper;
    below = cumulative;
  }
  return undefined;
};

/** The upper bound of the highest bucket the run put anything in, in ms ("at most"). */
export const histogramMaxBucketMs = (name: string, before: Scrape, after: Scrape): number | undefined => {
  const buckets = bucketsOf(name, before, after);
  const total = buckets.at(-1)?.[1] ?? 0;
  if (total === 0) return undefined;
  return buckets.find(([, cumulative]) => cumulative === total)![0] * 1000;
};

/** A sample without labels other than `service`. */
const single = (scrape: Scrape, name: string): number | undefined => {
  for (const [key, value] of scrape) if (key === name || key.startsWith(`${name}{`)) return value;
  return undefined;
};

export interface TailFigures {
  loopP99Ms?: number;
  /** prom-client's max since the previous scrape: the scrape before the run. */
  loopMaxMs?: number;
  poolWaitP99Ms?: number;
  gcPauseMs: number;
}

/** The run's event-loop delay p99 and max, pool wait p99 and time spent in GC pauses. */
export const tailFigures = (before: Scrape, after: Scrape): TailFigures => {
  const lagMax = single(after, 'nodejs_eventloop_lag_max_seconds');
  const gcSum = (s: Scrape) =>
    [...s].filter(([k]) => k.startsWith('nodejs_gc_duration_seconds_sum')).reduce((n, [, v]) => n + v, 0);
  return {
    loopP99Ms: histogramPercentileMs('nodejs_eventloop_delay_seconds', 99, before, after),
    loopMaxMs: lagMax === undefined ? undefined : lagMax * 1000,
    poolWaitP99Ms: histogramPercentileMs('db_pool_acquire_seconds', 99, before, after),
    gcPauseMs: (gcSum(after) - gcSum(before)) * 1000,
  };
};

const ms = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(1));

/** "loop p99 / max, pool p99, gc" of one service over a run, for a table cell. */
export const describeTail = (t: TailFigures): string =>
  `${ms(t.loopP99Ms)} / ${ms(t.loopMaxMs)} / ${ms(t.poolWaitP99Ms)} / ${ms(t.gcPauseMs)}`;

/** `name;desc="service";dur=x` entries → "service name" → ms. */
export const parseServerTiming = (header: string | null | undefined): Map<string, number> => {
  const out = new Map<string, number>();
  for (const entry of (header ?? '').split(',')) {
    const [name, ...params] = entry.trim().split(';');
    const desc = params
      .find((p) => p.startsWith('desc='))
      ?.slice(5)
      .replaceAll('"', '');
    const dur = params.find((p) => p.startsWith('dur='))?.slice(4);
    if (name && dur !== undefined) {
      const key = desc ? `${desc} ${name}` : name;
      out.set(key, (out.get(key) ?? 0) + Number(dur));
    }
  }
  return out;
};

/** A request's latency, its Server-Timing, and (paced runs) when it was sent, in ms from the start. */
type Timed = { ms: number; serverTiming: string | null; sentAtMs?: number };

/** Where one request's time went, from its Server-Timing (ms; '-' where a stage is missing). */
const breakdownOf = (r: Timed): Record<string, number | string> => {
  const t = parseServerTiming(r.serverTiming);
  const gatewayApp = t.get('gateway app');
  return {
    'total ms': Number(r.ms.toFixed(1)),
    'gateway before proxy': t.get('gateway before_upstream') ?? '-',
    'gateway upstream': t.get('gateway upstream') ?? '-',
    'payments app': t.get('payments app') ?? '-',
    'payments db': t.get('payments db') ?? '-',
    'payments pool wait': t.get('payments pool') ?? '-',
    'outside both': gatewayApp === undefined ? '-' : Number((r.ms - gatewayApp).toFixed(1)),
  };
};

/**
 * The slowest requests of a run, each with where its time went: the gateway before proxying and
 * waiting for the service, the service's own time, its database and pool waits, and what neither
 * process accounts for (the client's queue, the network, the kernel).
 */
export const slowestBreakdown = (requests: Timed[], count = 10): Array<Record<string, number | string>> =>
  [...requests]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((r) => ({
      ...(r.sentAtMs === undefined ? {} : { 'sent at s': Number((r.sentAtMs / 1000).toFixed(3)) }),
      ...breakdownOf(r),
    }));

/**
 * Whether a run's slow requests come together (a stall of everything) or one by one (a request's
 * own bad luck): the requests over `thresholdMs` grouped into windows of `windowMs` by the time they
 * were sent, the busiest windows first.
 */
export const slowWindows = (requests: Timed[], thresholdMs: number, windowMs = 100): string => {
  const slow = requests.filter((r) => r.ms > thresholdMs && r.sentAtMs !== undefined);
  const byWindow = new Map<number, number[]>();
  for (const r of slow) {
    const w = Math.floor(r.sentAtMs! / windowMs);
    byWindow.set(w, [...(byWindow.get(w) ?? []), r.ms]);
  }
  const windows = [...byWindow.entries()].sort((a, b) => b[1].length - a[1].length);
  const shown = windows
    .slice(0, 5)
    .map(
      ([w, ms]) =>
        `${((w * windowMs) / 1000).toFixed(1)} s: ${ms.length} (max ${Math.max(...ms).toFixed(0)} ms)`,
    );
  return `${slow.length} of ${requests.length} requests over ${thresholdMs} ms, in ${windows.length} windows of ${windowMs} ms; the busiest: ${shown.join('; ') || 'none'}`;
};

/** Each stage's median over a run's requests: where a typical request's time went. */
export const medianBreakdown = (requests: Timed[]): Record<string, number | string> => {
  const rows = requests.map(breakdownOf);
  const columns = Object.keys(rows[0] ?? {});
  return Object.fromEntries(
    columns.map((c) => {
      const values = rows
        .map((r) => r[c])
        .filter((v): v is number => typeof v === 'number')
        .sort((a, b) => a - b);
      return [c, values.length ? Number(values[Math.floor(values.length / 2)]!.toFixed(1)) : '-'];
    }),
  );
};
