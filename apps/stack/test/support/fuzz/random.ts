/**
 * A small seeded generator (mulberry32): the same seed gives the same requests, so a failure found
 * once can be replayed with `FUZZ_SEED=<seed>`.
 */
export interface Random {
  readonly seed: number;
  /** [0, 1) */
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  /** A child generator whose sequence depends only on this seed and `label`. */
  fork(label: string): Random;
}

const hash = (text: string): number => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
};

export const createRandom = (seed: number): Random => {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    seed,
    next,
    int,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(0, items.length - 1)]!;
    },
    chance: (p) => next() < p,
    fork: (label) => createRandom((seed ^ hash(label)) >>> 0),
  };
};

/** The seed of this run: `FUZZ_SEED` when set (to replay a failure), otherwise a fresh one. */
export const fuzzSeed = (env = process.env): number => {
  const given = env.FUZZ_SEED;
  if (given !== undefined && given !== '') {
    const n = Number(given);
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff)
      throw new Error(`FUZZ_SEED must be a uint32: ${given}`);
    return n;
  }
  return Math.floor(Math.random() * 0x100000000) >>> 0;
};
