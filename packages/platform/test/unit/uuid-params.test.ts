import { expect } from 'chai';
import type { z } from 'zod';
import { allRoutes, canonicalUuids, type OwningService, type RouteSpec } from '@stablepay/contracts';
import {
  INTERNAL_TOKEN_HEADER,
  requireInternalToken,
  signInternalToken,
  type CallerKind,
} from '../../src/auth/internal-token.js';
import { createHttpApp } from '../../src/http/app.js';
import { ok } from '../../src/http/respond.js';
import { canonicalRoutePath, mountRoutes } from '../../src/http/routes.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { createMetrics } from '../../src/metrics.js';
import { quietLogger } from '../../src/testing/backends.js';

const SECRET = 'uuid-params-test-secret-0123456789abcdef';
const MERCHANT = '3b0b2a36-5b1a-4c57-9a33-3f1e1b0f2a11';
const CALLER: Record<RouteSpec['auth'], CallerKind> = {
  public: 'public',
  key: 'api_key',
  jwt: 'user',
  jwt_or_key: 'user',
  service: 'service',
};

/** Every route of the catalogue with a path parameter: none may be forgotten. */
const withParams = allRoutes.filter((r) => r.path.includes('/:') && !r.planned);

/** A value each parameter's own schema accepts, in lower case: plain UUIDs and composite ids. */
const sampleFor = (schema: z.ZodType | undefined, name: string, n: number): string => {
  const uuid = `0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e${n.toString(16).padStart(2, '0')}`;
  const shape = (schema as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  const field = shape?.[name];
  const candidates = [uuid, `cs_live_${uuid}`, `mrc_live_${uuid}`];
  return candidates.find((c) => !field || field.safeParse(c).success) ?? uuid;
};

/** The route as it stands, with only its path parameters checked (bodies and queries are beside the point). */
const paramsOnly = (spec: RouteSpec): RouteSpec => ({
  ...spec,
  request: spec.request?.params ? { params: spec.request.params } : {},
});

describe('UUID path parameters: one spelling for every route of the catalogue', () => {
  const servers: RunningServer[] = [];
  const urlOf = new Map<OwningService, string>();

  before(async () => {
    const services = [...new Set(withParams.map((r) => r.service))];
    for (const service of services) {
      const table = allRoutes.filter((r) => r.service === service && !r.planned).map(paramsOnly);
      const handlers = Object.fromEntries(
        table.map((r) => [
          r.operationId,
          ({ params, req, res }: { params: unknown; req: { params: unknown }; res: never }) =>
            ok(res, { operationId: r.operationId, params, reqParams: req.params }),
        ]),
      );
      const http = createHttpApp({
        service,
        logger: quietLogger(),
        metrics: createMetrics(service, false),
        readiness: [],
      });
      http.app.use(requireInternalToken(SECRET));
      mountRoutes(http.app, service, handlers as never, table);
      http.finalize();
      const server = await listen(http.app, 0, '127.0.0.1');
      servers.push(server);
      urlOf.set(service, server.url);
    }
  });
  after(async () => {
    for (const s of servers) await s.close();
  });

  it('covers the routes that take an id', () => {
    expect(withParams.length).to.be.greaterThan(15);
    expect(withParams.map((r) => r.operationId)).to.include('regenerateWebhookSecret');
  });

  it('canonicalUuids lower-cases UUIDs, alone or inside composite ids, and nothing else', () => {
    expect(canonicalUuids('0B6F3A2E-5D4C-4B1A-9E8F-7A6B5C4D3E2F')).to.equal(
      '0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
    );
    expect(canonicalUuids('cs_live_0B6F3A2E-5D4C-4B1A-9E8F-7A6B5C4D3E2F')).to.equal(
      'cs_live_0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
    );
    expect(canonicalUuids('NOT-A-UUID')).to.equal('NOT-A-UUID');
  });

  for (const spec of withParams) {
    const method = spec.method.toUpperCase();
    it(`${method} ${spec.path} (${spec.operationId}) takes its id in upper case as the same resource`, async () => {
      const names = [...spec.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
      const canonical = Object.fromEntries(
        names.map((name, i) => [name, sampleFor(spec.request?.params, name, i)]),
      );
      const upper = Object.fromEntries(
        Object.entries(canonical).map(([k, v]) => [k, v.replace(/[0-9a-f-]{36}$/, (u) => u.toUpperCase())]),
      );
      expect(upper).to.not.deep.equal(canonical);
      const token = signInternalToken(SECRET, {
        caller: CALLER[spec.auth],
        merchantId: spec.auth === 'public' ? undefined : MERCHANT,
        scopes: spec.scope ? [spec.scope] : undefined,
        // As the gateway vouches after a step-up: what these routes are served with.
        ...(spec.stepUp && { stepUp: 'mfa' as const }),
      });
      const call = async (params: Record<string, string>) => {
        const res = await fetch(`${urlOf.get(spec.service)}${canonicalRoutePath(spec.path, params)}`, {
          method,
          headers: { 'content-type': 'application/json', [INTERNAL_TOKEN_HEADER]: token },
          body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
        });
        return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown> } };
      };
      const lower = await call(canonical);
      const shouted = await call(upper);
      expect(lower.status, JSON.stringify(lower.body)).to.equal(200);
      expect(shouted.status, JSON.stringify(shouted.body)).to.equal(200);
      expect(shouted.body).to.deep.equal(lower.body);
      if (spec.request?.params) expect(shouted.body.data!.params).to.deep.equal(canonical);
      // Whatever reads the request after validation sees the same spelling.
      expect(shouted.body.data!.reqParams).to.deep.equal(canonical);
    });
  }
});
