import { gzipSync } from 'node:zlib';
import type { z } from 'zod';
import type { RouteSpec } from '@stablepay/contracts';
import { unsafeTextDetails } from '@stablepay/platform';
import type { Random } from './random.js';
import { accepts, objectFields, sampleValid, unknownIdLike } from './schema-model.js';
import { HOSTILE_STRINGS, invalidCandidates, type Candidate } from './values.js';

/** One generated request, refused by the contract of its route (or by its domain, for `semantic`). */
export interface FuzzRequest {
  operationId: string;
  kind: string;
  label: string;
  method: string;
  /** ASCII only: anything else is percent-encoded already. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface RouteContext {
  /** Headers of a valid credential for the route's auth column (empty for public routes). */
  credential: Record<string, string>;
  /** Credentials that must be refused on this route (missing, forged, of another kind, revoked). */
  badCredentials: Array<{ label: string; headers: Record<string, string> }>;
  /** Path parameters naming an existing resource of the caller, when there is one to name. */
  ownParams?: Record<string, string>;
  /** Path parameters naming another merchant's resources: the route must answer as if unknown. */
  foreignParams?: Array<Record<string, string>>;
  /** Requests that pass the schema but that the domain must refuse without storing anything. */
  semantic?: Array<{ label: string; params?: Record<string, string>; query?: string; body?: unknown }>;
  /** The largest body the route reads, to send one just past it. */
  bodyLimit: number;
}

const SAMPLED_KINDS = new Set(['field', 'params', 'query', 'missing']);

const JSON_TYPE = { 'content-type': 'application/json' };

/** Noise headers added to some requests: none of them may turn a refusal into anything else. */
const NOISE: Array<Record<string, string>> = [
  { accept: 'text/html' },
  { accept: 'application/xml;q=1, */*;q=0' },
  { 'x-forwarded-for': "127.0.0.1, ' OR 1=1 --" },
  { origin: 'https://evil.example' },
  { 'x-request-id': '<script>alert(1)</script>' },
  { 'x-request-id': 'r'.repeat(1000) },
  { 'accept-encoding': 'gzip, br, zstd' },
  { 'idempotency-key': 'k'.repeat(300) },
  { 'idempotency-key': 'spaces are not allowed' },
  { 'x-http-method-override': 'DELETE' },
  { 'content-language': '../../etc' },
];

const RAW_BODIES: Array<[string, string]> = [
  ['empty', ''],
  ['blank', '   '],
  ['open brace', '{'],
  ['truncated', '{"amount":'],
  ['single quotes', "{'a': 1}"],
  ['bare keys', '{a: 1}'],
  ['trailing comma', '{"a": 1,}'],
  ['NaN literal', '{"a": NaN}'],
  ['bad escape', '{"a": "\\u00"}'],
  ['lone surrogate escape', '{"a": "\\ud800"}'],
  ['NUL escape in key', '{"\\u0000": 1}'],
  ['raw NUL', '{"a":"\u0000"}'],
  ['trailing garbage', '{}garbage'],
  ['two documents', '{}{}'],
  ['comment', '/* x */ {}'],
  ['null', 'null'],
  ['array', '[]'],
  ['string', '"x"'],
  ['number', '1'],
  ['true', 'true'],
  ['Infinity', 'Infinity'],
  ['huge exponent', '1e999999'],
  ['deep arrays', `${'['.repeat(5000)}${']'.repeat(5000)}`],
  ['deep objects', `${'{"a":'.repeat(3000)}null${'}'.repeat(3000)}`],
  ['latin-1 bytes', '{"a":"\xe9\xff"}'],
];

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/vnd.api+json+json',
];

const RAW_PARAMS: Array<[string, string]> = [
  ['dot dot', '..'],
  ['dot', '.'],
  ['encoded dot dot', '%2e%2e'],
  ['encoded traversal', '..%2f..%2f..%2fetc%2fpasswd'],
  ['encoded backslash traversal', '..%5c..%5cwin.ini'],
  ['encoded slash', 'a%2Fb'],
  ['NUL', '%00'],
  ['bad percent-encoding', '%E0%A4%A'],
  ['lone percent', '%'],
  ['double percent', '%%'],
  ['overlong dot', '%C0%AE%C0%AE'],
  ['encoded lone surrogate', '%ED%A0%80'],
  ['semicolon', 'x;y=1'],
  ['star', '*'],
  ['long', 'a'.repeat(3000)],
  ['encoded CRLF', '%0d%0aX-Injected:%201'],
  ['plus', '+'],
  ['SQL', "'%20OR%20'1'%3D'1"],
];

const UNKNOWN_QUERY: string[] = [
  'colour=red',
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  'status[$ne]=x',
  'limit[$gt]=0',
  'status[]=pending',
  'a.b=1',
  '=1',
  '%00=1',
  '%E0%A4%A=1',
  `${'q'.repeat(200)}=1`,
];

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) is written as the three
 * bytes WTF-8 gives it: the server then decodes text that is not valid UTF-8.
 */
const encode = (text: string): string =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[^]/gu, (c) => {
    if (c.length === 2 || !/[\uD800-\uDFFF]/.test(c)) return encodeURIComponent(c);
    const code = c.charCodeAt(0);
    return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
      .map((b) => `%${b.toString(16).toUpperCase()}`)
      .join('');
  });

const ascii = (text: string) => text.replace(/[^\x21-\x7e]/gu, (c) => encode(c));

/** `/refunds/api/:id` with the given values (already URL-safe). */
const fill = (route: RouteSpec, params: Record<string, string>): string =>
  route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => params[name] ?? 'missing');

const encodeParams = (params: Record<string, string>) =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, encode(v)]));

const queryString = (query: Record<string, string>): string =>
  Object.entries(query)
    .map(([k, v]) => `${encode(k)}=${encode(v)}`)
    .join('&');

const paramNames = (route: RouteSpec): string[] =>
  [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);

/** Whether the server, reading this JSON text, must refuse it (what it parses, not what was meant). */
const refusedText = (schema: z.ZodType | undefined, text: string): boolean =>
  invalidForServer(schema, JSON.parse(text));

const invalidForServer = (schema: z.ZodType | undefined, value: unknown): boolean =>
  unsafeTextDetails(value).length > 0 || (schema !== undefined && !accepts(schema, value ?? {}));

/**
 * Every request made for one route: the fixed attacks first (credentials, raw bodies, content
 * types, path and query attacks, each field of the body refused in turn, each required field left
 * out), then random combinations until `quota` is reached. Each is checked against the route's
 * schemas before it is kept: a request the contract would accept is never sent.
 */
export const requestsFor = (
  route: RouteSpec,
  ctx: RouteContext,
  rng: Random,
  quota: number,
): FuzzRequest[] => {
  const bodySchema = route.request?.body;
  const querySchema = route.request?.query;
  const paramsSchema = route.request?.params;
  const names = paramNames(route);
  const method = route.method.toUpperCase();

  const validParams =
    ctx.ownParams ??
    Object.fromEntries(
      names.map((n) => [
        n,
        paramsSchema && sampleValid(paramsSchema)
          ? String((sampleValid(paramsSchema)!.value as Record<string, string>)[n])
          : 'x',
      ]),
    );
  const unknownParams = (): Record<string, string> => {
    if (!paramsSchema) return {};
    const out: Record<string, string> = {};
    const fields = objectFields(paramsSchema) ?? [];
    for (const f of fields) out[f.name] = unknownIdLike(f.schema, rng) ?? 'unknown';
    return out;
  };
  const baseQuery =
    (querySchema ? (sampleValid(querySchema)?.value as Record<string, string>) : undefined) ?? {};
  const baseBody = bodySchema
    ? (sampleValid(bodySchema)?.value as Record<string, unknown> | undefined)
    : undefined;
  const bodyFields = bodySchema ? (objectFields(bodySchema) ?? []) : [];
  const emptyBodyAccepted = bodySchema ? accepts(bodySchema, {}) : true;

  const fixed: FuzzRequest[] = [];
  const make = (
    kind: string,
    label: string,
    opts: {
      params?: Record<string, string>;
      query?: string;
      body?: string | Buffer;
      headers?: Record<string, string>;
      method?: string;
    } = {},
  ): FuzzRequest => {
    const qs = opts.query ?? queryString(baseQuery);
    return {
      operationId: route.operationId,
      kind,
      label,
      method: opts.method ?? method,
      path: ascii(fill(route, opts.params ?? encodeParams(validParams)) + (qs ? `?${qs}` : '')),
      headers: { ...ctx.credential, ...(opts.body !== undefined ? JSON_TYPE : {}), ...opts.headers },
      body: opts.body,
    };
  };
  const withBody = (value: unknown) => (bodySchema ? JSON.stringify(value) : undefined);
  const validBodyText = withBody(baseBody ?? {});

  // Credentials: a perfectly shaped request with a credential this route must refuse.
  for (const bad of ctx.badCredentials) {
    const req = make('auth', bad.label, { body: validBodyText });
    req.headers = { ...(validBodyText !== undefined ? JSON_TYPE : {}), ...bad.headers };
    fixed.push(req);
  }

  // A method the path does not serve.
  fixed.push(make('method', 'PATCH', { method: 'PATCH', body: validBodyText }));

  // Path parameters: refused by their schema, raw attacks on the URL, unknown and foreign ids.
  for (const name of names) {
    const fieldSchema = paramsSchema
      ? objectFields(paramsSchema)?.find((f) => f.name === name)?.schema
      : undefined;
    const candidates = fieldSchema
      ? invalidCandidates(fieldSchema).filter((c) => typeof c.value === 'string' && c.value !== '')
      : [];
    for (const c of candidates)
      fixed.push(
        make('params', `${name}: ${c.label}`, {
          params: { ...encodeParams(validParams), [name]: encode(c.value as string) },
          body: validBodyText,
        }),
      );
    for (const [label, raw] of RAW_PARAMS)
      fixed.push(
        make('raw-param', `${name}: raw ${label}`, {
          params: { ...encodeParams(validParams), [name]: raw },
          body: validBodyText,
        }),
      );
  }
  if (names.length) {
    for (let i = 0; i < 3; i++)
      fixed.push(
        make('unknown-id', 'unknown id', { params: encodeParams(unknownParams()), body: validBodyText }),
      );
    for (const foreign of ctx.foreignParams ?? [])
      fixed.push(
        make('foreign-id', "another merchant's id", { params: encodeParams(foreign), body: validBodyText }),
      );
  }

  // Query: unknown and repeated names, values refused by each parameter's schema.
  for (const extra of UNKNOWN_QUERY) {
    const qs = [queryString(baseQuery), extra].filter(Boolean).join('&');
    fixed.push(make('unknown-query', `unknown ${extra.slice(0, 24)}`, { query: qs, body: validBodyText }));
  }
  const queryFields = querySchema ? (objectFields(querySchema) ?? []) : [];
  for (const f of queryFields) {
    const valid = baseQuery[f.name] ?? (sampleValid(f.schema)?.value as string | undefined) ?? '1';
    fixed.push(
      make('query', `${f.name} repeated`, {
        query:
          queryString(baseQuery) + `&${f.name}=${encode(String(valid))}&${f.name}=${encode(String(valid))}`,
        body: validBodyText,
      }),
    );
    for (const c of invalidCandidates(f.schema)) {
      if (typeof c.value !== 'string' && typeof c.value !== 'number') continue;
      const q = { ...baseQuery, [f.name]: String(c.value) };
      if (!invalidForServer(querySchema, q)) continue;
      fixed.push(make('query', `${f.name}: ${c.label}`, { query: queryString(q), body: validBodyText }));
    }
    fixed.push(
      make('query', `${f.name}: bad percent-encoding`, { query: `${f.name}=%E0%A4%A`, body: validBodyText }),
    );
  }

  // Bodies: the whole body malformed, mistyped, too large or in another encoding.
  if (bodySchema) {
    // A body its route refuses: a required field left out, or else one field given a refused value.
    const required = bodyFields.find((f) => f.required);
    const firstBad = bodyFields.map((f) => [f, invalidCandidates(f.schema)[0]] as const).find(([, c]) => c);
    const refusedBody =
      baseBody && required
        ? JSON.stringify(withoutField(baseBody, required.name))
        : firstBad
          ? JSON.stringify({ ...baseBody, [firstBad[0].name]: firstBad[1]!.value })
          : '[]';
    for (const [label, text] of RAW_BODIES) {
      let parsed: unknown;
      try {
        // The server reads an empty body as no body at all.
        parsed = text.trim() === '' ? {} : JSON.parse(text);
      } catch {
        parsed = Symbol('unparseable');
      }
      if (typeof parsed !== 'symbol' && !invalidForServer(bodySchema, parsed)) continue;
      fixed.push(
        make('raw-body', label, { body: Buffer.from(text, label === 'latin-1 bytes' ? 'latin1' : 'utf8') }),
      );
    }
    const idForEmpty = emptyBodyAccepted ? encodeParams(unknownParams()) : undefined;
    if (!emptyBodyAccepted || names.length) {
      for (const type of CONTENT_TYPES)
        fixed.push(
          make('content-type', type, {
            body: validBodyText,
            params: idForEmpty,
            headers: { 'content-type': type },
          }),
        );
      const noType = make('content-type', 'none', { body: validBodyText, params: idForEmpty });
      delete noType.headers['content-type'];
      fixed.push(noType);
    }
    fixed.push(
      make('encoding', 'gzip header on plain text', {
        body: refusedBody,
        headers: { 'content-encoding': 'gzip' },
      }),
    );
    fixed.push(
      make('encoding', 'deflate header on plain text', {
        body: refusedBody,
        headers: { 'content-encoding': 'deflate' },
      }),
    );
    fixed.push(
      make('encoding', 'unknown encoding', {
        body: refusedBody,
        headers: { 'content-encoding': 'x-unknown' },
      }),
    );
    fixed.push(
      make('encoding', 'gzip of a refused body', {
        body: gzipSync(refusedBody),
        headers: { 'content-encoding': 'gzip' },
      }),
    );
    fixed.push(
      make('encoding', 'gzip bomb past the limit', {
        body: gzipSync(Buffer.alloc(ctx.bodyLimit * 4, 0x20)),
        headers: { 'content-encoding': 'gzip' },
      }),
    );
    fixed.push(make('size', 'one byte past the limit', { body: `{"a":"${'x'.repeat(ctx.bodyLimit - 7)}"}` }));
    fixed.push(make('size', 'twice the limit', { body: `{"a":"${'x'.repeat(ctx.bodyLimit * 2)}"}` }));
    fixed.push(make('body', 'BOM before a refused body', { body: `\uFEFF${refusedBody}` }));
    if (baseBody) {
      for (const f of bodyFields) {
        if (f.required)
          fixed.push(
            make('missing', `without ${f.name}`, { body: JSON.stringify(withoutField(baseBody, f.name)) }),
          );
        for (const c of invalidCandidates(f.schema)) {
          const text = JSON.stringify({ ...baseBody, [f.name]: c.value });
          if (refusedText(bodySchema, text))
            fixed.push(make('field', `${f.name}: ${c.label}`, { body: text }));
        }
        // The last of two keys wins in JSON.parse: a refused value after a valid one.
        const bad = invalidCandidates(f.schema)[0];
        if (bad) {
          const text = JSON.stringify(baseBody).replace(
            /}$/,
            `,${JSON.stringify(f.name)}:${JSON.stringify(bad.value)}}`,
          );
          fixed.push(make('field', `${f.name} given twice, the second refused`, { body: text }));
        }
      }
    }
  }

  for (const s of ctx.semantic ?? [])
    fixed.push(
      make('semantic', s.label, {
        params: s.params ? encodeParams(s.params) : undefined,
        query: s.query,
        body: s.body === undefined ? validBodyText : JSON.stringify(s.body),
      }),
    );

  const random = (): FuzzRequest | undefined =>
    randomRequest(route, {
      rng,
      make,
      baseBody,
      bodyFields,
      bodySchema,
      baseQuery,
      querySchema,
      validParams,
      names,
    });

  // Credential, body-level, encoding, unknown-id and domain attacks are few and always sent; the
  // many per-field values are sampled (seeded, every kind represented) to leave a share of the
  // quota to random combinations.
  const kept = fixed.filter((r) => !SAMPLED_KINDS.has(r.kind));
  const many = fixed.filter((r) => SAMPLED_KINDS.has(r.kind));
  const room = Math.max(0, quota - kept.length - Math.ceil(quota * 0.15));
  const picked = [...kept, ...(many.length <= room ? many : sampleByKind(many, room, rng))];
  let guard = 0;
  while (picked.length < quota && guard++ < quota * 20) {
    const next = random();
    if (next) picked.push(next);
  }
  // Noise never touches requests whose exact status is checked (credentials, others' ids) nor
  // those meant to reach the domain (semantic).
  for (const req of picked)
    if (!['auth', 'foreign-id', 'semantic'].includes(req.kind) && rng.chance(0.3))
      req.headers = { ...rng.pick(NOISE), ...req.headers };
  return picked;
};

const withoutField = (body: Record<string, unknown>, name: string) => {
  const { [name]: _, ...rest } = body;
  return rest;
};

/** A seeded sample of `n` requests that keeps at least a few of every kind. */
const sampleByKind = (all: FuzzRequest[], n: number, rng: Random): FuzzRequest[] => {
  const byKind = new Map<string, FuzzRequest[]>();
  for (const r of all) byKind.set(r.kind, [...(byKind.get(r.kind) ?? []), r]);
  const out: FuzzRequest[] = [];
  const pools = [...byKind.values()].map((pool) => shuffle(pool, rng));
  while (out.length < n && pools.some((p) => p.length))
    for (const pool of pools) if (pool.length && out.length < n) out.push(pool.pop()!);
  return out;
};

const shuffle = <T>(items: T[], rng: Random): T[] => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

interface RandomInput {
  rng: Random;
  make: (
    kind: string,
    label: string,
    opts?: { params?: Record<string, string>; query?: string; body?: string | Buffer },
  ) => FuzzRequest;
  baseBody: Record<string, unknown> | undefined;
  bodyFields: Array<{ name: string; schema: z.ZodType; required: boolean }>;
  bodySchema: z.ZodType | undefined;
  baseQuery: Record<string, string>;
  querySchema: z.ZodType | undefined;
  validParams: Record<string, string>;
  names: string[];
}

/**
 * A random combination: several body fields refused or replaced by hostile text at once, keys
 * that pollute prototypes, with a query or a path parameter refused alongside. Undefined when the
 * draw happens to make a request the contract accepts.
 */
const randomRequest = (route: RouteSpec, input: RandomInput): FuzzRequest | undefined => {
  const { rng, make, baseBody, bodyFields, bodySchema, baseQuery, querySchema, names } = input;
  const labels: string[] = [];
  let invalid = false;
  let body: Record<string, unknown> | undefined = baseBody ? { ...baseBody } : bodySchema ? {} : undefined;
  if (body && bodyFields.length) {
    for (let i = rng.int(1, 3); i > 0; i--) {
      const f = rng.pick(bodyFields);
      const roll = rng.next();
      if (roll < 0.5) {
        const c: Candidate | undefined = pickOf(invalidCandidates(f.schema), rng);
        if (c) {
          body[f.name] = c.value;
          labels.push(`${f.name}: ${c.label}`);
        }
      } else if (roll < 0.75) {
        body[f.name] = rng.pick(HOSTILE_STRINGS);
        labels.push(`${f.name}: hostile`);
      } else {
        delete body[f.name];
        labels.push(`without ${f.name}`);
      }
    }
    if (rng.chance(0.2)) {
      body = {
        ...JSON.parse('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}}}'),
        ...body,
      };
      labels.push('pollution keys');
    }
    invalid = refusedText(bodySchema, JSON.stringify(body));
  }
  let query = queryString(baseQuery);
  const queryFields = querySchema ? (objectFields(querySchema) ?? []) : [];
  if (!invalid || rng.chance(0.3)) {
    if (queryFields.length && rng.chance(0.7)) {
      const f = rng.pick(queryFields);
      const c = pickOf(
        invalidCandidates(f.schema).filter((x) => typeof x.value === 'string'),
        rng,
      );
      if (c) {
        const q = { ...baseQuery, [f.name]: c.value as string };
        if (invalidForServer(querySchema, q)) {
          query = queryString(q);
          labels.push(`query ${f.name}: ${c.label}`);
          invalid = true;
        }
      }
    } else if (!invalid || names.length === 0) {
      query = [query, `${encode(rng.pick(HOSTILE_STRINGS).slice(0, 64))}=${rng.int(0, 9)}`]
        .filter(Boolean)
        .join('&');
      labels.push('unknown query parameter');
      invalid = true;
    }
  }
  let params: Record<string, string> | undefined;
  if (names.length && (!invalid || rng.chance(0.3))) {
    const name = rng.pick(names);
    const paramsSchema = route.request?.params;
    const f = paramsSchema ? objectFields(paramsSchema)?.find((x) => x.name === name) : undefined;
    const c = f
      ? pickOf(
          invalidCandidates(f.schema).filter((x) => typeof x.value === 'string' && x.value !== ''),
          rng,
        )
      : undefined;
    if (c) {
      params = { ...encodeParams(input.validParams), [name]: encode(c.value as string) };
      labels.push(`param ${name}: ${c.label}`);
      invalid = true;
    }
  }
  if (!invalid) return undefined;
  return make('random', labels.join(' + '), {
    params,
    query,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
};

const pickOf = <T>(items: T[], rng: Random): T | undefined => (items.length ? rng.pick(items) : undefined);
