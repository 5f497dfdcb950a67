import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import {
  API_KEY_SCOPES,
  ApiKeyScope,
  CreateApiKeyBody,
  DEFAULT_API_KEY_SCOPES,
  admitsApiKey,
  allRoutes,
  assertScopesDeclared,
  routeById,
  routes,
  routesWithoutScope,
  scopeGranted,
  type RouteSpec,
} from '../../src/index.js';

/** The key routes of the interface specification (the extensions aside). */
const specificationKeyRoutes = allRoutes.filter((r) => admitsApiKey(r) && !r.extension);

describe('API key scopes', () => {
  it('declares a known scope on every route an API key may call, and on no other', () => {
    expect(routesWithoutScope(allRoutes)).to.deep.equal([]);
    const keyRoutes = allRoutes.filter(admitsApiKey);
    expect(keyRoutes.length).to.be.at.least(30);
    for (const route of allRoutes) {
      if (admitsApiKey(route)) expect(ApiKeyScope.options, route.operationId).to.include(route.scope);
      else expect(route.scope, `${route.operationId} (${route.auth})`).to.equal(undefined);
    }
  });

  it('uses every scope of the set on at least one route', () => {
    const used = new Set(allRoutes.filter(admitsApiKey).map((r) => r.scope));
    expect([...used]).to.have.members([...API_KEY_SCOPES]);
  });

  it('needs withdrawals:write to request a withdrawal, and a write scope for every change', () => {
    expect(routeById('createWithdrawalApi').scope).to.equal('withdrawals:write');
    expect(routeById('createRefund').scope).to.equal('refunds:write');
    expect(routeById('cancelRefund').scope).to.equal('refunds:write');
    expect(routeById('createCheckoutSession').scope).to.equal('checkout:write');
    expect(routeById('createCheckoutSessionAlias').scope).to.equal('checkout:write');
    for (const route of allRoutes.filter(admitsApiKey)) {
      const changes = route.method !== 'get';
      expect(route.scope.endsWith(':write'), `${route.method} ${route.path}`).to.equal(changes);
    }
  });

  it('gives by default every scope the specification’s key routes need, and never withdrawals:write', () => {
    for (const route of specificationKeyRoutes)
      expect(DEFAULT_API_KEY_SCOPES, `${route.method} ${route.path}`).to.include(route.scope);
    expect(DEFAULT_API_KEY_SCOPES).to.not.include('withdrawals:write');
    expect([...DEFAULT_API_KEY_SCOPES, 'withdrawals:write']).to.have.members([...API_KEY_SCOPES]);
  });

  it('stops a table whose key route names no scope, naming the route', () => {
    const unscoped = {
      ...routeById('listRefunds'),
      operationId: 'listRefundsUnscoped',
      scope: undefined,
    } as unknown as RouteSpec;
    const misspelt = { ...routeById('getRefund'), scope: 'refunds:everything' } as unknown as RouteSpec;
    const dashboard = routeById('listRefundsDashboard');
    expect(routesWithoutScope([unscoped, misspelt, dashboard]).map((r) => r.operationId)).to.deep.equal([
      'listRefundsUnscoped',
      'getRefund',
    ]);
    expect(() => assertScopesDeclared('refunds', [dashboard, unscoped])).to.throw(
      /refunds: route listRefundsUnscoped \(GET \/refunds\/api\/list\) admits an API key but declares no scope/,
    );
    expect(() => assertScopesDeclared('refunds', allRoutes)).to.not.throw();
  });

  it('is documented in docs/api/security.md as the catalogue declares it', () => {
    const doc = readFileSync(new URL('../../../../docs/api/security.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Scoped API keys'));
    const rows = [...section.matchAll(/^\| `([a-z]+:[a-z]+)` \| (yes|\*\*no\*\*) \| (.+) \|$/gm)];
    const documented = rows.map(([, scope, byDefault, list]) => ({
      scope,
      byDefault: byDefault === 'yes',
      routes: [...list!.matchAll(/`([A-Z]+ [^`]+)`/g)].map((m) => m[1]),
    }));
    const declared = API_KEY_SCOPES.map((scope) => ({
      scope,
      byDefault: DEFAULT_API_KEY_SCOPES.includes(scope),
      routes: routes
        .filter((r) => admitsApiKey(r) && r.scope === scope)
        .map((r) => `${r.method.toUpperCase()} ${r.path}`),
    }));
    expect(documented).to.deep.equal(declared);
  });

  it('grants a route only to a key holding its scope', () => {
    expect(scopeGranted(['refunds:read'], 'refunds:read')).to.equal(true);
    expect(scopeGranted(['refunds:read'], 'refunds:write')).to.equal(false);
    expect(scopeGranted([], 'refunds:read')).to.equal(false);
    expect(scopeGranted(undefined, 'refunds:read')).to.equal(false);
  });

  it('accepts a create body with or without scopes, and refuses empty, unknown or repeated ones', () => {
    expect(CreateApiKeyBody.parse({ name: 'shop' })).to.deep.equal({ name: 'shop' });
    expect(CreateApiKeyBody.parse({ name: 'shop', scopes: ['checkout:write'] }).scopes).to.deep.equal([
      'checkout:write',
    ]);
    const issues = (body: unknown) =>
      CreateApiKeyBody.safeParse(body).error?.issues.map((i) => [i.path.join('.'), i.code]);
    expect(issues({ name: 'x', scopes: [] })).to.deep.equal([['scopes', 'too_small']]);
    expect(issues({ name: 'x', scopes: ['checkout:write', 'admin'] })).to.deep.equal([
      ['scopes.1', 'invalid_value'],
    ]);
    expect(issues({ name: 'x', scopes: ['refunds:read', 'refunds:read'] })).to.deep.equal([
      ['scopes', 'custom'],
    ]);
    expect(issues({ name: 'x', scopes: 'refunds:read' })).to.deep.equal([['scopes', 'invalid_type']]);
  });
});
