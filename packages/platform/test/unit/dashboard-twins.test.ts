import { expect } from 'chai';
import { z } from 'zod';
import { dashboardTwins, type RouteSpec } from '@stablepay/contracts';
import {
  INTERNAL_TOKEN_HEADER,
  requireInternalToken,
  signInternalToken,
} from '../../src/auth/internal-token.js';
import { createHttpApp } from '../../src/http/app.js';
import { ok } from '../../src/http/respond.js';
import { assertHandlersMatchCatalogue, mountRoutes, type RouteHandlers } from '../../src/http/routes.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { createMetrics } from '../../src/metrics.js';
import { quietLogger } from '../../src/testing/backends.js';

const SECRET = 'twin-test-secret-0123456789abcdef-01234';
const MERCHANT = '3b0b2a36-5b1a-4c57-9a33-3f1e1b0f2a11';

const declared: RouteSpec[] = [
  {
    operationId: 'listThings',
    method: 'get',
    path: '/things/api/list',
    dashboard: '/things',
    auth: 'key',
    scope: 'refunds:read',
    service: 'refunds',
    summary: 'List things',
    tags: [],
    request: { query: z.object({ q: z.string().max(20).optional() }) },
    responses: {},
  },
  {
    operationId: 'createThing',
    method: 'post',
    path: '/things/api/create',
    dashboard: '/things',
    auth: 'key',
    scope: 'refunds:write',
    service: 'refunds',
    summary: 'Create a thing',
    tags: [],
    request: { body: z.object({ name: z.string().min(1) }) },
    responses: {},
  },
];
const table: RouteSpec[] = [...declared, ...dashboardTwins(declared)];

type Input = { query: unknown; body: unknown; merchant: unknown; res: never };
const handlers: Record<string, (input: Input) => void> = {
  listThings: ({ query, merchant, res }) => ok(res, { handler: 'listThings', query, merchant }),
  createThing: ({ body, res }) => ok(res, { handler: 'createThing', body }, 201),
  // A service may still serve a twin itself: its own handler wins over the original's.
  createThingDashboard: ({ body, res }) => ok(res, { handler: 'createThingDashboard', body }, 201),
};

/** Keys of a handler table a service may leave out. */
type Optional<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

describe('dashboard twins in the platform', () => {
  it("may be left out of a service's handler table, and only they (checked by tsc)", () => {
    const optional: Optional<RouteHandlers<'refunds'>>[] = [
      'createRefundDashboard',
      'listRefundsDashboard',
      'getRefundDashboard',
      'cancelRefundDashboard',
    ];
    // @ts-expect-error the original operation's handler is required
    const required: Optional<RouteHandlers<'refunds'>> = 'createRefund';
    expect([...optional, required]).to.have.length(5);
  });

  let server: RunningServer;
  const call = async (method: string, path: string, caller: 'api_key' | 'user', body?: unknown) => {
    const token = signInternalToken(SECRET, {
      caller,
      merchantId: MERCHANT,
      scopes: caller === 'api_key' ? ['refunds:read', 'refunds:write'] : undefined,
    });
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', [INTERNAL_TOKEN_HEADER]: token },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  before(async () => {
    const http = createHttpApp({
      service: 'test',
      logger: quietLogger(),
      metrics: createMetrics('test', false),
      readiness: [],
    });
    http.app.use(requireInternalToken(SECRET));
    mountRoutes(http.app, 'refunds', handlers as never, table);
    http.finalize();
    server = await listen(http.app, 0, '127.0.0.1');
  });
  after(() => server.close());

  it('needs no handler of its own: the original operation has one', () => {
    expect(() =>
      assertHandlersMatchCatalogue('refunds', ['listThings', 'createThing'], table),
    ).not.to.throw();
    expect(() => assertHandlersMatchCatalogue('refunds', ['createThing'], table)).to.throw(
      /catalogue route listThings \(GET \/things\/api\/list\) has no handler; catalogue route listThingsDashboard \(GET \/things\) has no handler/,
    );
  });

  it("serves a twin without a handler with its original's, for a dashboard session only", async () => {
    const viaTwin = await call('GET', '/things?q=abc', 'user');
    expect(viaTwin.status).to.equal(200);
    expect(viaTwin.body.data).to.deep.include({ handler: 'listThings', query: { q: 'abc' } });
    expect(viaTwin.body.data.merchant).to.include({ merchantId: MERCHANT, caller: 'user' });
    expect((await call('GET', '/things', 'api_key')).status).to.equal(403);
    expect((await call('GET', '/things/api/list', 'user')).status).to.equal(403);
    expect((await call('GET', '/things/api/list', 'api_key')).body.data.handler).to.equal('listThings');
  });

  it("serves a twin with its own handler when the service registers one, validated by the twin's schemas", async () => {
    const created = await call('POST', '/things', 'user', { name: 'x' });
    expect(created.status).to.equal(201);
    expect(created.body.data.handler).to.equal('createThingDashboard');
    expect((await call('POST', '/things', 'user', { name: '' })).status).to.equal(400);
  });
});
