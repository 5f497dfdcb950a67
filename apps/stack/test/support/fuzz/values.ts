import type { z } from 'zod';
import { accepts, elementOf, hintsOf, kindOf, objectFields, sampleValid } from './schema-model.js';

/** Text that has broken parsers, queries, templates and logs elsewhere. */
export const HOSTILE_STRINGS: readonly string[] = [
  "' OR '1'='1",
  "1'; DROP TABLE payments; --",
  '"; SELECT pg_sleep(10); --',
  "' UNION SELECT password_hash FROM gateway.users --",
  '$1',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}#{7*7}',
  '{"$ne":null}',
  '__proto__',
  'constructor',
  'a\u0000b',
  '\u0000',
  'lone \uD800 surrogate',
  '\uDFFF',
  '\u0001\u0002\u001f\u007f',
  '\r\nX-Injected: 1',
  'right\u202Eto-left',
  'zero\u200Bwidth\uFEFF',
  '\uFEFF',
  '😀👍🏽👨‍👩‍👧',
  'Z̷̧̛̖̈́a̸̡͓̽l̵̨̛g̶̢̛o̵̡̧',
  'ＡＢＣ１２３',
  '١٢٣',
  '   ',
  '\t\n',
  'null',
  'undefined',
  'NaN',
  '-0',
  '%00',
  '%E0%A4%A',
  'A'.repeat(4097),
];

export interface Candidate {
  label: string;
  value: unknown;
}

const nearMisses = (text: string): Candidate[] => [
  { label: 'one char short', value: text.slice(0, -1) },
  { label: 'one char long', value: `${text}0` },
  { label: 'non-hex char', value: `${text.slice(0, -1)}g` },
  { label: 'upper-cased', value: text.toUpperCase() },
  { label: 'leading space', value: ` ${text}` },
  { label: 'trailing newline', value: `${text}\n` },
  { label: 'with NUL', value: `${text}\u0000` },
  { label: 'fullwidth digit', value: text.replace(/[0-9]/, '０') },
  { label: 'doubled', value: `${text}${text}` },
];

const numberEdges = (bounds: number[]): Candidate[] => {
  const out: Candidate[] = [];
  for (const b of bounds) {
    for (const [label, n] of [
      ['bound', b],
      ['bound - 1', b - 1],
      ['bound + 1', b + 1],
      ['bound - 1e-6', b - 0.000001],
      ['bound + 1e-6', b + 0.000001],
      ['bound + 1e-7', b + 0.0000001],
    ] as const) {
      out.push({ label: `${label} (${b})`, value: n }, { label: `"${label}" (${b})`, value: String(n) });
    }
  }
  return out;
};

const NUMBERS: Candidate[] = [
  { label: 'zero', value: 0 },
  { label: 'negative zero', value: -0 },
  { label: 'negative', value: -1 },
  { label: 'negative fraction', value: -0.01 },
  { label: 'fraction', value: 0.5 },
  { label: 'seven decimals', value: 1.0000001 },
  { label: 'float artefact', value: 0.30000000000000004 },
  { label: 'tiny', value: 1e-7 },
  { label: 'huge', value: 1e21 },
  { label: 'max double', value: Number.MAX_VALUE },
  { label: 'past safe integer', value: Number.MAX_SAFE_INTEGER + 2 },
  { label: '2^31', value: 2 ** 31 },
  { label: '"2^63"', value: '9223372036854775808' },
  { label: '"1e3"', value: '1e3' },
  { label: '"0x10"', value: '0x10' },
  { label: '" 5"', value: ' 5' },
  { label: '"5 "', value: '5 ' },
  { label: '"+5"', value: '+5' },
  { label: '"05"', value: '05' },
  { label: '"1,5"', value: '1,5' },
  { label: '"1_000"', value: '1_000' },
  { label: '"-1"', value: '-1' },
  { label: '"0"', value: '0' },
  { label: '"0.0000001"', value: '0.0000001' },
  { label: '".5"', value: '.5' },
  { label: '"5."', value: '5.' },
  { label: '"NaN"', value: 'NaN' },
  { label: '"Infinity"', value: 'Infinity' },
  { label: '"-Infinity"', value: '-Infinity' },
  { label: 'arabic digits', value: '١٢' },
  { label: 'fullwidth digits', value: '１２' },
];

const TYPE_CONFUSION: Candidate[] = [
  { label: 'null', value: null },
  { label: 'true', value: true },
  { label: 'false', value: false },
  { label: 'number', value: 42 },
  { label: 'empty string', value: '' },
  { label: 'string', value: 'x' },
  { label: 'empty array', value: [] },
  { label: 'array of string', value: ['x'] },
  { label: 'empty object', value: {} },
  { label: 'object', value: { a: 1 } },
  { label: 'pollution object', value: JSON.parse('{"__proto__":{"polluted":true}}') },
  { label: '"true"', value: 'true' },
  { label: '"null"', value: 'null' },
];

/**
 * Values a field refuses, from its schema: wrong types, lengths and bounds just past the limits,
 * near misses of its format, words next to its enum, hostile text, wrong array and record shapes.
 * Every candidate returned is refused by the field's own schema (checked here).
 */
const memo = new WeakMap<z.ZodType, Candidate[]>();

export const invalidCandidates = (schema: z.ZodType, depth = 0): Candidate[] => {
  const known = depth === 0 ? memo.get(schema) : undefined;
  if (known) return known;
  const found = collect(schema, depth);
  if (depth === 0) memo.set(schema, found);
  return found;
};

const collect = (schema: z.ZodType, depth: number): Candidate[] => {
  const hints = hintsOf(schema);
  const kind = kindOf(schema);
  const base = sampleValid(schema)?.value;
  const out: Candidate[] = [...TYPE_CONFUSION];
  if (base !== undefined) {
    out.push(
      { label: 'wrapped in an array', value: [base] },
      { label: 'wrapped in an object', value: { value: base } },
    );
    if (typeof base === 'string') out.push(...nearMisses(base));
  }
  for (const n of hints.lengths) {
    for (const len of [n - 1, n, n + 1])
      if (len >= 0 && len < 20_000) out.push({ label: `length ${len}`, value: 'a'.repeat(len) });
    if (typeof base === 'string' && n + 1 > base.length)
      out.push({ label: `padded to ${n + 1}`, value: base.padEnd(n + 1, 'x') });
  }
  out.push(...numberEdges(hints.numbers), ...NUMBERS);
  for (const word of hints.words) {
    if (typeof word !== 'string') continue;
    out.push(
      { label: `lower-cased ${word}`, value: word.toLowerCase() },
      { label: `${word} with space`, value: `${word} ` },
      { label: `${word} and more`, value: `${word},${word}` },
      { label: `${word} with NUL`, value: `${word}\u0000` },
      { label: `Turkish i ${word}`, value: word.replace(/i/gi, 'İ') },
    );
  }
  if (hints.formats.has('email'))
    out.push(
      ...[
        'plainaddress',
        '@example.com',
        'a@',
        'a@@example.com',
        'a@example..com',
        'a b@example.com',
        `${'a'.repeat(250)}@example.com`,
      ].map((value) => ({ label: `email ${value.slice(0, 20)}`, value })),
    );
  if (hints.formats.has('url'))
    out.push(
      ...[
        'javascript:alert(1)',
        'ftp://example.com/x',
        'file:///etc/passwd',
        'http://',
        '//example.com',
        'example.com',
        `https://example.com/${'a'.repeat(2048)}`,
        'data:text/html,<b>x</b>',
      ].map((value) => ({ label: `url ${value.slice(0, 24)}`, value })),
    );
  if (hints.formats.has('datetime') || hints.formats.has('date'))
    out.push(
      ...[
        '2025-02-30',
        '2025-13-01',
        '2025-01-01T25:00:00Z',
        '2025-01-01 00:00:00',
        '1704067200',
        'yesterday',
        '0000-00-00T00:00:00Z',
        '+275760-09-13T00:00:00Z',
        '2025-01-01T00:00:00+24:00',
      ].map((value) => ({ label: `date ${value}`, value })),
    );
  if (kind === 'array') {
    const element = elementOf(schema);
    const good = element ? sampleValid(element)?.value : undefined;
    if (good !== undefined) out.push({ label: 'duplicated element', value: [good, good] });
    out.push({ label: '1,000 elements', value: Array.from({ length: 1000 }, () => good ?? 'x') });
    if (element && depth < 2)
      for (const c of invalidCandidates(element, depth + 1).slice(0, 12))
        out.push({ label: `element ${c.label}`, value: good === undefined ? [c.value] : [good, c.value] });
  }
  if (kind === 'record') {
    out.push(
      { label: 'empty key', value: { '': 'x' } },
      { label: 'long key', value: { ['k'.repeat(41)]: 'x' } },
      { label: 'six pairs', value: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'v'])) },
      { label: 'number value', value: { k: 1 } },
      { label: 'nested value', value: { k: { deeper: ['x'] } } },
      { label: 'long value', value: { k: 'v'.repeat(501) } },
      { label: '11 KB', value: { k: 'v'.repeat(11 * 1024) } },
    );
  }
  const fields = objectFields(schema);
  if (fields && depth < 2 && base && typeof base === 'object') {
    for (const field of fields) {
      if (field.required) {
        const { [field.name]: _, ...rest } = base as Record<string, unknown>;
        out.push({ label: `without ${field.name}`, value: rest });
      }
      for (const c of invalidCandidates(field.schema, depth + 1).slice(0, 8))
        out.push({
          label: `${field.name}: ${c.label}`,
          value: { ...(base as object), [field.name]: c.value },
        });
    }
  }
  for (const text of HOSTILE_STRINGS)
    out.push({ label: `hostile ${JSON.stringify(text.slice(0, 16))}`, value: text });
  return out.filter((c) => !accepts(schema, c.value));
};
