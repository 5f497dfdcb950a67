import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { z } from 'zod';
import type { RouteSpec } from '@stablepay/contracts';
import {
  INTERNAL_TOKEN_HEADER,
  requireInternalToken,
  signInternalToken,
} from '../../src/auth/internal-token.js';
import { createHttpApp, type HttpApp } from '../../src/http/app.js';
import { ok } from '../../src/http/respond.js';
import { assertHandlersMatchCatalogue, mountRoutes } from '../../src/http/routes.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { createMetrics } from '../../src/metrics.js';
import { quietLogger } from '../../src/testing/backends.js';

const SECRET = 'route-test-secret-0123456789abcdef-0123';

/** A small catalogue of the payments service's shape, so the rules are tested apart from the real one. */
const table: RouteSpec[] = [
  {
    operationId: 'thing',
    method: 'get',
    path: '/things/:id',
    auth: 'jwt',
    service: 'payments',
    summary: 'A thing',
    tags: [],
    request: { params: z.object({ id: z.string().uuid() }) },
    responses: {},
  },
  {
    operationId: 'search',
    method: 'get',
    path: '/things/search',
    auth: 'public',
    service: 'payments',
    summary: 'Search',
    tags: [],
    request: { query: z.object({ q: z.string().max(20).optional() }) },
    responses: {},
  },
  {
    operationId: 'create',
    method: 'post',
    path: '/things',
    auth: 'key',
    scope: 'checkout:write',
    service: 'payments',
    summary: 'Create',
    tags: [],
    noStore: true,
    request: { body: z.object({ name: z.string().min(1) }) },
    responses: {},
  },
  {
    operationId: 'later',
    method: 'get',
    path: '/later',
    auth: 'public',
    service: 'payments',
    summary: 'Not yet',
    tags: [],
    planned: 'Not available yet',
    responses: {},
  },
];

const handlers = {
  thing: ({ params, res }: { params: unknown; res: never }) => ok(res, { route: 'thing', params }),
  search: ({ query, res }: { query: unknown; res: never }) => ok(res, { route: 'search', query }),
  create: ({ body, merchant, res }: { body: unknown; merchant: unknown; res: never }) =>
    ok(res, { body, merchant }, 201),
};

const token = (caller: 'public' | 'api_key' | 'user', scopes?: string[]) =>
  signInternalToken(SECRET, {
    caller,
    merchantId: caller === 'public' ? undefined : '3b0b2a36-5b1a-4c57-9a33-3f1e1b0f2a11',
    scopes: caller === 'api_key' ? (scopes ?? ['checkout:write']) : undefined,
  });

/** An API key's token as a gateway without scopes would sign it: it grants no scope. */
// Signed when used: an internal token lives 60 seconds, less than a whole test run.
const unscopedToken = () =>
  signInternalToken(SECRET, {
    caller: 'api_key',
    merchantId: '3b0b2a36-5b1a-4c57-9a33-3f1e1b0f2a11',
  });

describe('catalogue routes', () => {
  let http: HttpApp;
  let server: RunningServer;
  const call = async (
    method: string,
    path: string,
    caller: 'public' | 'api_key' | 'user',
    body?: string,
    headers: Record<string, string> = {},
    scopes?: string[],
  ) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        [INTERNAL_TOKEN_HEADER]: token(caller, scopes),
        ...headers,
      },
      body,
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
  };

  before(async () => {
    http = createHttpApp({
      service: 'test',
      logger: quietLogger(),
      metrics: createMetrics('test', false),
      readiness: [],
    });
    http.app.use(requireInternalToken(SECRET));
    mountRoutes(http.app, 'payments', handlers as never, table);
    http.finalize();
    server = await listen(http.app, 0, '127.0.0.1');
  });
  after(() => server.close());

  it('refuses to start when a catalogue route has no handler, or a handler has no route', () => {
    expect(() => assertHandlersMatchCatalogue('payments', ['thing', 'search'], table)).to.throw(
      /catalogue route create \(POST \/things\) has no handler/,
    );
    expect(() =>
      assertHandlersMatchCatalogue('payments', [...Object.keys(handlers), 'stray'], table),
    ).to.throw(/handler stray has no catalogue route/);
    expect(() => assertHandlersMatchCatalogue('payments', Object.keys(handlers), table)).not.to.throw();
  });

  it('refuses to start when a route an API key may call declares no scope', () => {
    const unscoped = table.map((r) => (r.auth === 'key' ? { ...r, scope: undefined } : r)) as RouteSpec[];
    expect(() => assertHandlersMatchCatalogue('payments', Object.keys(handlers), unscoped)).to.throw(
      /payments: route create \(POST \/things\) admits an API key but declares no scope/,
    );
    const router = createHttpApp({
      service: 'test',
      logger: quietLogger(),
      metrics: createMetrics('test', false),
      readiness: [],
    });
    expect(() => mountRoutes(router.app, 'payments', handlers as never, unscoped)).to.throw(
      /declares no scope/,
    );
  });

  it('checks the route’s scope again from the token: without it, 403 insufficient_scope and no handler', async () => {
    const body = JSON.stringify({ name: 'x' });
    for (const scopes of [[], ['payments:read', 'checkout:read'], undefined]) {
      const headers: Record<string, string> =
        scopes === undefined ? { [INTERNAL_TOKEN_HEADER]: unscopedToken() } : {};
      const r = await call('POST', '/things', 'api_key', body, headers, scopes ?? []);
      expect(r.status, JSON.stringify(scopes)).to.equal(403);
      expect(r.body).to.deep.equal({
        success: false,
        error: 'This API key lacks the scope checkout:write',
        details: [
          {
            path: '',
            code: 'insufficient_scope',
            message: 'The API key needs the scope checkout:write: create a key that holds it',
          },
        ],
      });
    }
    // Checked before the body: a key without the scope learns nothing of the route's rules.
    expect((await call('POST', '/things', 'api_key', '{}', {}, [])).status).to.equal(403);
    expect((await call('POST', '/things', 'api_key', body, {}, ['checkout:write'])).status).to.equal(201);
    // A dashboard session is not scope-limited: on a jwt route it has no scopes and needs none.
    expect((await call('GET', '/things/3b0b2a36-5b1a-4c57-9a33-3f1e1b0f2a11', 'user')).status).to.equal(200);
  });

  it('never lets a parameter route shadow a static one, whatever the table order', async () => {
    const r = await call('GET', '/things/search?q=shoes', 'public');
    expect(r.status).to.equal(200);
    expect(r.body.data).to.deep.equal({ route: 'search', query: { q: 'shoes' } });
  });

  it('guards each route by its caller kind', async () => {
    const id = '3b0b2a36-5b1a-4c57-9a33-3f1e1b0f2a11';
    expect((await call('GET', `/things/${id}`, 'public')).status).to.equal(401);
    expect((await call('GET', `/things/${id}`, 'api_key')).status).to.equal(403);
    expect((await call('GET', `/things/${id}`, 'user')).status).to.equal(200);
  });

  it('hands the handler parsed parts and the merchant', async () => {
    const r = await call('POST', '/things', 'api_key', JSON.stringify({ name: 'x' }));
    expect(r.status).to.equal(201);
    expect(r.body.data.merchant).to.include({ caller: 'api_key' });
    expect(r.headers.get('cache-control')).to.equal('no-store');
    const refused = await call('POST', '/things', 'user', JSON.stringify({ name: 'x' }));
    expect(refused.status).to.equal(403);
    expect(refused.headers.get('cache-control'), 'errors are not cached either').to.equal('no-store');
  });

  it('refuses unknown, bracketed and repeated query parameters by name', async () => {
    for (const qs of ['status%5B%24ne%5D=x', 'limit=1', 'q=a&q=b']) {
      const r = await call('GET', `/things/search?${qs}`, 'public');
      expect(r.status, qs).to.equal(400);
      expect(r.body.success).to.equal(false);
      expect(r.body.details[0].path).to.match(/^(status\[\$ne\]|limit|q)$/);
    }
  });

  it('refuses NUL characters and lone surrogates in any text with a 400', async () => {
    for (const name of ['a\u0000b', 'x\uD800', '\uDC00y']) {
      const r = await call('POST', '/things', 'api_key', JSON.stringify({ name }));
      expect(r.status, JSON.stringify(name)).to.equal(400);
      expect(r.body.details[0]).to.include({ path: 'name', code: 'invalid_text' });
    }
    expect((await call('GET', '/things/search?q=%00', 'public')).status).to.equal(400);
    expect((await call('POST', '/things', 'api_key', JSON.stringify({ name: 'ok 👍' }))).status).to.equal(
      201,
    );
  });

  it('refuses a body nested past the depth limit with a 400, however deep (no stack overflow)', async () => {
    for (const depth of [65, 30_000]) {
      const deep = `{"name":"x","extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const r = await call('POST', '/things', 'api_key', deep);
      expect(r.status, `depth ${depth}`).to.equal(400);
      expect(r.body.details[0]).to.include({ code: 'too_deep' });
    }
    const nested = `{"name":"x","extra":${'['.repeat(60)}${']'.repeat(60)}}`;
    expect((await call('POST', '/things', 'api_key', nested)).status).to.equal(201);
  });

  it('refuses a query string that is not valid percent-encoding with a 400', async () => {
    for (const qs of ['q=%E0%A4%A', 'q=%zz', 'q=%FF', 'q=abc%']) {
      const r = await call('GET', `/things/search?${qs}`, 'public');
      expect(r.status, qs).to.equal(400);
      expect(r.body.details[0]).to.include({ code: 'invalid_encoding' });
    }
    expect((await call('GET', '/things/search?q=%C3%A9+x%20y', 'public')).status).to.equal(200);
  });

  it('answers a path that is not valid percent-encoding with a 400 envelope', async () => {
    const r = await call('GET', '/things/%E0%A4%A', 'user');
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.include({ success: false, error: 'The URL path is not valid percent-encoding' });
  });

  it('answers a body that does not match its Content-Encoding with a 400 envelope', async () => {
    const r = await call('POST', '/things', 'api_key', '{"name":"x"}', { 'content-encoding': 'gzip' });
    expect(r.status).to.equal(400);
    expect(r.body.success).to.equal(false);
    const unknown = await call('POST', '/things', 'api_key', '{"name":"x"}', { 'content-encoding': 'br2' });
    expect(unknown.status).to.equal(415);
    const res = await fetch(`${server.url}/things`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        [INTERNAL_TOKEN_HEADER]: token('api_key'),
      },
      body: gzipSync('{"name":"zipped"}'),
    });
    expect(res.status, 'a real gzip body is read').to.equal(201);
  });

  it('answers what the HTTP parser refuses in the envelope: 431 for huge headers, 400 for bad framing', async () => {
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1', () => socket.end(request));
        let text = '';
        socket.on('data', (d) => (text += d.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    const huge = await raw(`GET /things/search HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge).to.match(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4))).to.include({ success: false });
    const broken = await raw('GET /things/search HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n');
    expect(broken).to.match(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(broken.slice(broken.indexOf('\r\n\r\n') + 4))).to.include({ success: false });
  });
});
