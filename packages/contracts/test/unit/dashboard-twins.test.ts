import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { allRoutes, routeById, type RouteSpec } from '../../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));

interface CatalogueEntry {
  operationId: string;
  method: string;
  path: string;
  auth: string;
  service: string;
  scope?: string;
}

/** Written from the catalogue as it was when every twin was declared by hand. */
const snapshot: CatalogueEntry[] = JSON.parse(
  readFileSync(resolve(here, '../fixtures/catalogue-snapshot.json'), 'utf8'),
);

const entry = ({ operationId, method, path, auth, service, scope }: RouteSpec): CatalogueEntry => ({
  operationId,
  method,
  path,
  auth,
  service,
  ...(scope ? { scope } : {}),
});

describe('dashboard twins', () => {
  it('leave the catalogue as it was when each twin was declared by hand', () => {
    expect(allRoutes.map(entry)).to.have.deep.members(snapshot);
    expect(allRoutes).to.have.length(snapshot.length);
  });

  it('are derived from every key route that names a dashboard path, and only from those', () => {
    const declaring = allRoutes.filter((r) => r.dashboard).map((r) => `${r.operationId}Dashboard`);
    const twins = allRoutes.filter((r) => r.twinOf).map((r) => r.operationId);
    expect(twins).to.have.members(declaring);
    expect(twins).to.have.length(24);
  });

  it('serve the same operation for a dashboard session: same schemas and owner, no scope', () => {
    for (const twin of allRoutes.filter((r) => r.twinOf)) {
      const original = allRoutes.find((r) => r.operationId === twin.twinOf)!;
      expect(twin.operationId).to.equal(`${original.operationId}Dashboard`);
      expect(twin.path).to.equal(original.dashboard);
      expect(twin).to.include({ method: original.method, service: original.service, auth: 'jwt' });
      expect(twin.request).to.equal(original.request);
      expect(twin.responses).to.equal(original.responses);
      expect(twin.scope).to.equal(undefined);
      expect(twin.extension).to.equal(true);
      expect(twin.summary).to.equal(`${original.summary} (dashboard)`);
    }
  });

  it('keep their literal operation id and path in the catalogue types', () => {
    const twin = routeById('createRefundDashboard');
    const path: '/refunds' = twin.path;
    const twinOf: 'createRefund' = twin.twinOf;
    expect([path, twinOf]).to.deep.equal(['/refunds', 'createRefund']);
  });
});
