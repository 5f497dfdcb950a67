const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `"0,5s,5m,2h"` → `[0, 5000, 300000, 7200000]`; a number without unit is milliseconds. */
export const parseDurationList = (text: string): number[] | undefined => {
  const items = text.split(',').map((s) => s.trim());
  const out: number[] = [];
  for (const item of items) {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(item);
    if (!m) return undefined;
    out.push(Math.round(Number(m[1]) * UNIT_MS[m[2] ?? 'ms']!));
  }
  return out;
};

/**
 * The delivery schedule: `delaysMs[i]` is the wait before attempt i+1, counted from the failure of
 * attempt i (the first entry, usually 0, is the wait before the first attempt). Its length is the
 * number of attempts.
 */
export interface RetrySchedule {
  delaysMs: number[];
  /** ± fraction applied to every retry delay, so that failures do not come back in lockstep. */
  jitter: number;
  /** Upper bound on what a Retry-After header may impose. */
  retryAfterMaxMs: number;
}

export const maxAttempts = (s: RetrySchedule): number => s.delaysMs.length;

export const withJitter = (ms: number, jitter: number, random: () => number = Math.random): number =>
  ms <= 0 || jitter <= 0 ? ms : Math.round(ms * (1 - jitter + 2 * jitter * random()));

/**
 * When to try again after attempt `attempt` (1-based) failed: undefined when it was the last. A
 * Retry-After from the receiver is a lower bound (capped), never shortened by jitter.
 */
export const nextRetryDelay = (
  s: RetrySchedule,
  attempt: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number | undefined => {
  if (attempt >= maxAttempts(s)) return undefined;
  const planned = withJitter(s.delaysMs[attempt]!, s.jitter, random);
  if (retryAfterMs === undefined) return planned;
  return Math.max(planned, Math.min(retryAfterMs, s.retryAfterMaxMs));
};

/**
 * Retry-After as milliseconds from `now`: delta-seconds or an HTTP date. Unparseable or past values
 * give undefined (the schedule alone applies).
 */
export const parseRetryAfter = (value: string | undefined, now: number = Date.now()): number | undefined => {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return at > now ? at - now : undefined;
};
