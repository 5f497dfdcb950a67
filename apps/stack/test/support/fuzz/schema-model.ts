import type { z } from 'zod';
import type { Random } from './random.js';

/**
 * Reading the contracts' zod (v4) schemas through `schema._zod.def`: what a field accepts (type,
 * lengths, bounds, formats, enum values) so that values just inside and just outside it can be
 * made, and a valid sample of every body, query and path to mutate one field at a time.
 */
type Schema = z.ZodType;

interface Def {
  type: string;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
  options?: Schema[];
  element?: Schema;
  shape?: Record<string, Schema>;
  keyType?: Schema;
  valueType?: Schema;
  entries?: Record<string, string | number>;
  values?: unknown[];
  checks?: Array<{ _zod: { def: CheckDef } }>;
  format?: string;
  pattern?: RegExp;
  minimum?: number;
  maximum?: number;
  getter?: () => Schema;
}

interface CheckDef {
  check: string;
  value?: number | bigint;
  minimum?: number;
  maximum?: number;
  length?: number;
  format?: string;
  pattern?: RegExp;
}

const defOf = (schema: Schema): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The schema under optional/nullable/default wrappers, and whether the field may be left out. */
export const unwrap = (schema: Schema): { core: Schema; optional: boolean } => {
  let core = schema;
  let optional = false;
  for (;;) {
    const def = defOf(core);
    if (!WRAPPERS.has(def.type) || !def.innerType) return { core, optional };
    if (def.type === 'optional' || def.type === 'default' || def.type === 'prefault') optional = true;
    core = def.innerType;
  }
};

/** The schema a request value meets first: the input side of pipes and transforms. */
export const inputSide = (schema: Schema): Schema => {
  const { core } = unwrap(schema);
  const def = defOf(core);
  if (def.type === 'pipe' && def.in) return inputSide(def.in);
  if (def.type === 'lazy' && def.getter) return inputSide(def.getter());
  return core;
};

export const kindOf = (schema: Schema): string => defOf(inputSide(schema)).type;

export interface ObjectField {
  name: string;
  schema: Schema;
  required: boolean;
}

/** Fields of an object schema (through wrappers and pipes), or undefined for anything else. */
export const objectFields = (schema: Schema): ObjectField[] | undefined => {
  const core = inputSide(schema);
  const def = defOf(core);
  if (def.type !== 'object' || !def.shape) return undefined;
  return Object.entries(def.shape).map(([name, field]) => ({
    name,
    schema: field,
    required: !unwrap(field).optional && !accepts(field, undefined),
  }));
};

export const elementOf = (schema: Schema): Schema | undefined => defOf(inputSide(schema)).element;

export const accepts = (schema: Schema, value: unknown): boolean => schema.safeParse(value).success;

/** What the checks anywhere in a schema say about lengths, bounds, formats and allowed words. */
export interface Hints {
  numbers: number[];
  lengths: number[];
  formats: Set<string>;
  patterns: RegExp[];
  words: Array<string | number>;
  types: Set<string>;
}

export const hintsOf = (schema: Schema): Hints => {
  const hints: Hints = {
    numbers: [],
    lengths: [],
    formats: new Set(),
    patterns: [],
    words: [],
    types: new Set(),
  };
  const seen = new Set<Schema>();
  const visit = (s: Schema | undefined, depth: number): void => {
    if (!s || seen.has(s) || depth > 6) return;
    seen.add(s);
    const def = defOf(s);
    hints.types.add(def.type);
    if (def.format) hints.formats.add(def.format);
    if (def.pattern) hints.patterns.push(def.pattern);
    if (def.entries) hints.words.push(...Object.values(def.entries));
    if (def.values) hints.words.push(...(def.values.filter((v) => typeof v !== 'object') as string[]));
    for (const check of def.checks ?? []) {
      const c = check._zod?.def;
      if (!c) continue;
      if (typeof c.value === 'number') hints.numbers.push(c.value);
      for (const n of [c.minimum, c.maximum, c.length]) if (typeof n === 'number') hints.lengths.push(n);
      if (c.format) hints.formats.add(c.format);
      if (c.pattern) hints.patterns.push(c.pattern);
    }
    for (const child of [def.innerType, def.in, def.out, def.element, def.keyType, def.valueType])
      visit(child, depth + 1);
    for (const option of def.options ?? []) visit(option, depth + 1);
  };
  visit(schema, 0);
  return hints;
};

const UUID = '3f1c2a9e-7b4d-4e21-9c3a-5d6e7f8a9b0c';

/** Strings that satisfy the patterns and formats of the contracts, tried in turn for a valid sample. */
const sampleStrings = (): string[] => [
  'correct horse battery staple',
  'Shop',
  UUID,
  `0x${'ab'.repeat(32)}`,
  `0x${'ab'.repeat(20)}`,
  `sp_live_${UUID}`,
  `cs_live_${UUID}`,
  `0x${'ab'.repeat(65)}`,
  'ab'.repeat(32),
  'buyer@example.com',
  // Loopback: webhook URLs are resolved, and the test stack allows plain http to loopback.
  'http://127.0.0.1:9/hook',
  'https://shop.example/thanks',
  new Date(Date.now() - 3_600_000).toISOString(),
  '2025-01-31',
  'DE',
  'DE123456789',
  '12.5',
  '5',
  'USDC,EURC',
  // A one-time code of an authenticator app.
  '123456',
];

/**
 * A value the schema accepts, or undefined when none of the tries fits (the caller then has no
 * base to mutate and falls back to whole-body attacks). Objects are built greedily: required
 * fields first, then each optional field kept only when it adds no issue, which satisfies the
 * cross-field rules of the contracts (same-chain payments need expectedAmount, and so on).
 */
export const sampleValid = (schema: Schema, depth = 0): { value: unknown } | undefined => {
  if (depth > 5) return undefined;
  const fields = objectFields(schema);
  if (fields) {
    const value: Record<string, unknown> = {};
    for (const field of fields.filter((f) => f.required)) {
      const sample = sampleValid(field.schema, depth + 1);
      if (!sample) return undefined;
      value[field.name] = sample.value;
    }
    const issues = (v: unknown) => schema.safeParse(v).error?.issues.length ?? 0;
    let current = issues(value);
    for (const field of fields.filter((f) => !f.required)) {
      const sample = sampleValid(field.schema, depth + 1);
      if (!sample || sample.value === undefined) continue;
      const tried = { ...value, [field.name]: sample.value };
      const n = issues(tried);
      if (n <= current) {
        value[field.name] = sample.value;
        current = n;
      }
    }
    return current === 0 ? { value } : undefined;
  }
  const core = inputSide(schema);
  const kind = defOf(core).type;
  const hints = hintsOf(schema);
  const tries: unknown[] = [];
  if (kind === 'array') {
    const element = elementOf(schema);
    const sample = element ? sampleValid(element, depth + 1) : undefined;
    if (sample) tries.push([sample.value]);
    tries.push([]);
  }
  if (kind === 'record') tries.push({ note: 'x' }, {});
  tries.push(...hints.words);
  if (hints.types.has('boolean')) tries.push(true, false);
  tries.push(...sampleStrings());
  for (const n of [...hints.numbers, 1, 100, 1800, 8453]) tries.push(n, String(n));
  tries.push('fuzz');
  for (const value of tries) if (accepts(schema, value)) return { value };
  if (kind === 'union') {
    for (const option of defOf(core).options ?? []) {
      const sample = sampleValid(option, depth + 1);
      if (sample && accepts(schema, sample.value)) return sample;
    }
  }
  return undefined;
};

/** A fresh id in the format of a path parameter (UUID, public merchant id or session id). */
export const unknownIdLike = (schema: Schema, rng: Random): string | undefined => {
  const id = uuidFrom(rng);
  for (const candidate of [id, `sp_live_${id}`, `cs_live_${id}`])
    if (accepts(schema, candidate)) return candidate;
  return undefined;
};

const hex = (rng: Random, n: number) => Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join('');

/** A version-4 UUID drawn from the seeded generator. */
export const uuidFrom = (rng: Random): string =>
  `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-${rng.pick(['8', '9', 'a', 'b'])}${hex(rng, 3)}-${hex(rng, 12)}`;
