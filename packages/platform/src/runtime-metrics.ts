import { PerformanceObserver, constants, monitorEventLoopDelay } from 'node:perf_hooks';
import { Histogram, type Registry } from 'prom-client';

/** How often the loop is sampled: a stall shorter than this may fall between two samples. */
export const EVENT_LOOP_RESOLUTION_MS = 10;
const DRAIN_EVERY_MS = 5_000;

/** Fine between 10 ms and 200 ms, where a request's tail is made. */
const EVENT_LOOP_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1, 2.5,
];
const GC_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2.5];

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

/**
 * How many of the `count` samples recorded are at most `bound` ns. The native histogram answers
 * only "the value at a percentile"; `percentile(100·k/count)` is the smallest value with k samples
 * at or below it, which grows with k, so the answer is found by bisection.
 */
type IntervalHistogram = ReturnType<typeof monitorEventLoopDelay>;

const countAtMost = (h: IntervalHistogram, count: number, bound: number): number => {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (h.percentile((mid / count) * 100) <= bound) lo = mid;
    else hi = mid - 1;
  }
  return lo;
};

/**
 * The event loop's delay as a cumulative histogram, so that any window (a Prometheus rate, a bench's
 * before and after) has its own percentiles, whoever else scrapes. prom-client's
 * `nodejs_eventloop_lag_p99_seconds` and its siblings are reset by every scrape instead, so with two
 * scrapers each sees half the story. The native monitor (one libuv timer, no JS per sample) records;
 * each scrape, and every 5 s, adds the samples recorded since the time before to the buckets, each
 * at the middle of its bucket (the sum is approximate; the counts are exact). The monitor is never
 * reset: its first tick after a reset records nothing, and that tick is the one a stall spanning
 * the reset would be in. It records the whole time between two of its ticks, so an idle loop reads
 * as the resolution: that is taken off, leaving the delay.
 */
const eventLoopDelay = (registry: Registry, name: string): void => {
  const monitor = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
  monitor.enable();
  const tick = EVENT_LOOP_RESOLUTION_MS * 1e6;
  const bounds = [...EVENT_LOOP_BUCKETS.map((s) => s * 1e9 + tick), Infinity];
  const middles = EVENT_LOOP_BUCKETS.map((upper, i) => (upper + (EVENT_LOOP_BUCKETS[i - 1] ?? 0)) / 2);
  let counted = bounds.map(() => 0);
  const histogram = new Histogram({
    name,
    help: `Event loop delay, sampled every ${EVENT_LOOP_RESOLUTION_MS} ms (a stall of d ms is one sample of about d ms)`,
    buckets: EVENT_LOOP_BUCKETS,
    registers: [registry],
    collect: () => drain(),
  });
  const drain = () => {
    const count = monitor.count;
    if (count === 0) return;
    const now = bounds.map((bound) => (bound === Infinity ? count : countAtMost(monitor, count, bound)));
    for (let b = 0; b < bounds.length; b++) {
      const added = now[b]! - (now[b - 1] ?? 0) - (counted[b]! - (counted[b - 1] ?? 0));
      const value = middles[b] ?? Math.max(0, monitor.max - tick) / 1e9;
      for (let i = 0; i < added; i++) histogram.observe(value);
    }
    counted = now;
  };
  // Samples are moved one observation each: drained every few seconds, a late or missing scraper
  // never leaves hours of them to move at once (a stall of its own).
  setInterval(drain, DRAIN_EVERY_MS).unref();
};

/**
 * GC pauses by kind. Replaces prom-client's `nodejs_gc_duration_seconds` (same name and label):
 * that one records only the first entry of each batch the observer delivers, and GCs come in
 * batches (dozens of minor ones between two deliveries under load), and its buckets jump from 1 ms
 * to 10 ms to 100 ms.
 */
const gcPauses = (registry: Registry, name: string): void => {
  registry.removeSingleMetric(name);
  const histogram = new Histogram({
    name,
    help: 'Garbage collection pause by kind, one of major, minor, incremental or weakcb.',
    labelNames: ['kind'],
    buckets: GC_BUCKETS,
    registers: [registry],
  });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = GC_KINDS[(entry as { detail?: { kind?: number } }).detail?.kind ?? -1] ?? 'unknown';
      histogram.observe({ kind }, entry.duration / 1000);
    }
  }).observe({ entryTypes: ['gc'] });
};

/**
 * What the process itself adds to prom-client's defaults: the loop's stalls and the GC's pauses,
 * under the names the caller gives (the platform's metrics module names every metric it exposes).
 */
export const registerRuntimeMetrics = (
  registry: Registry,
  names: { eventLoopDelay: { name: string }; gcPauses: { name: string } },
): void => {
  eventLoopDelay(registry, names.eventLoopDelay.name);
  gcPauses(registry, names.gcPauses.name);
};
