import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { admitsApiKey, buildOpenApiDocument, routes, toOpenApiPath } from '../../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../../..');
const specPath = resolve(repoRoot, '../shared/spec/interface-spec.md');
const fixturePath = resolve(here, '../fixtures/endpoint-table.md');

interface SpecEndpoint {
  method: string;
  path: string;
  auth: string;
}

/** Rows of the `| Method | Path | Auth |` table. */
function specEndpoints(): SpecEndpoint[] {
  const text = readFileSync(existsSync(specPath) ? specPath : fixturePath, 'utf8');
  const lines = text.split('\n');
  const header = lines.findIndex((line) => /^\|\s*Method\s*\|\s*Path\s*\|\s*Auth\s*\|/.test(line));
  expect(header, 'endpoint table not found').to.be.greaterThan(-1);
  const rows: SpecEndpoint[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [method, path, auth] = line
      .split('|')
      .slice(1, 4)
      .map((cell) => cell.trim());
    rows.push({ method: method!.toLowerCase(), path: path!, auth: auth! });
  }
  return rows;
}

/** The security requirement a route of the table's auth class has (the scope is in x-required-scope). */
const securityOf = (auth: string): unknown[] =>
  ({
    public: [],
    key: [{ ApiKeyAuth: [] }],
    jwt: [{ BearerAuth: [] }],
  })[auth]!;

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument({ serverUrl: 'http://localhost:8080' });
  const endpoints = specEndpoints();

  it('is OpenAPI 3.1 with both security schemes', () => {
    expect(doc.openapi).to.equal('3.1.0');
    const schemes = doc.components.securitySchemes as Record<string, Record<string, unknown>>;
    expect(Object.keys(schemes)).to.have.members(['ApiKeyAuth', 'BearerAuth']);
    expect(schemes.ApiKeyAuth).to.include({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(schemes.ApiKeyAuth!.description).to.contain('insufficient_scope');
    expect(schemes.BearerAuth).to.deep.equal({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it('parses the whole endpoint table of the specification', () => {
    expect(endpoints).to.have.length(33);
  });

  it('lists every method, path and auth of the specification', () => {
    for (const { method, path, auth } of endpoints) {
      const op = doc.paths[toOpenApiPath(path)]?.[method];
      expect(op, `${method.toUpperCase()} ${path}`).to.be.an('object');
      const route = routes.find((r) => r.method === method && r.path === path);
      expect(op!.security, `${method.toUpperCase()} ${path} auth`).to.deep.equal(securityOf(auth));
      expect(route?.auth, `${path} route auth`).to.equal(auth);
      expect(route?.extension ?? false, `${path} is not an extension`).to.equal(false);
    }
  });

  it('names the scope of every operation an API key may call, and of no other', () => {
    for (const route of routes) {
      const op = doc.paths[toOpenApiPath(route.path)]![route.method]!;
      const where = `${route.method} ${route.path}`;
      if (admitsApiKey(route)) {
        expect(op['x-required-scope'], where).to.equal(route.scope);
        expect(op.security, where).to.deep.include({ ApiKeyAuth: [] });
        expect(op.description, where).to.contain(`\`${route.scope}\``);
      } else {
        expect(op, where).to.not.have.property('x-required-scope');
      }
    }
    const withdraw = doc.paths['/withdrawals/api/create']!.post!;
    expect(withdraw['x-required-scope']).to.equal('withdrawals:write');
    expect(withdraw.security).to.deep.equal([{ ApiKeyAuth: [] }]);
  });

  it('marks every route outside the specification as an extension', () => {
    const inSpec = new Set(endpoints.map((e) => `${e.method} ${e.path}`));
    for (const route of routes) {
      expect(route.extension ?? false, `${route.method} ${route.path}`).to.equal(
        !inSpec.has(`${route.method} ${route.path}`),
      );
    }
  });

  it('registers static segments before parameter segments', () => {
    const index = (method: string, path: string) =>
      routes.findIndex((r) => r.method === method && r.path === path);
    expect(index('get', '/payments/api/list')).to.be.lessThan(index('get', '/payments/:id'));
    expect(index('get', '/payments/cctp-fee')).to.be.lessThan(index('get', '/payments/:id'));
    expect(index('get', '/merchant-webhooks/api/list')).to.be.lessThan(
      index('get', '/merchant-webhooks/api/:id'),
    );
    expect(index('get', '/merchant-webhooks/api/events')).to.be.lessThan(
      index('get', '/merchant-webhooks/api/:id'),
    );
    expect(index('get', '/refunds/api/list')).to.be.lessThan(index('get', '/refunds/api/:id'));
    for (const [i, route] of routes.entries()) {
      for (const later of routes.slice(i + 1)) {
        if (later.method !== route.method) continue;
        expect(shadows(route.path, later.path), `${route.path} shadows ${later.path}`).to.equal(false);
      }
    }
  });

  it('gives every operation a unique operationId, responses and an owning service', () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method} ${path}`;
        expect(op.operationId, where).to.be.a('string');
        expect(ids.has(op.operationId as string), `duplicate ${String(op.operationId)}`).to.equal(false);
        ids.add(op.operationId as string);
        expect(Object.keys(op.responses as object), where).to.not.be.empty;
        expect(op['x-service'], where).to.be.a('string');
        for (const param of (path.match(/\{(\w+)\}/g) ?? []).map((p) => p.slice(1, -1))) {
          const declared = (op.parameters as Array<{ name: string; in: string }>).some(
            (p) => p.name === param && p.in === 'path',
          );
          expect(declared, `${where} declares path parameter ${param}`).to.equal(true);
        }
      }
    }
  });

  it('marks the step-up operations (the withdrawal address book changes) with x-step-up and the code header', () => {
    const stepped = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op['x-step-up'] === true)
        .map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(stepped.map((s) => s.at).sort()).to.deep.equal([
      'DELETE /withdrawal-addresses/{id}',
      'POST /withdrawal-addresses',
    ]);
    for (const { op } of stepped) {
      expect(op.parameters).to.deep.include({ $ref: '#/components/parameters/MfaCode' });
      expect(op.security).to.deep.equal([{ BearerAuth: [] }]);
      expect(op.responses).to.have.property('403');
    }
    expect(doc.components.parameters).to.have.nested.property('MfaCode.name', 'X-Mfa-Code');
    const list = doc.paths['/withdrawal-addresses']!.get!;
    expect(list).to.not.have.property('x-step-up');
  });

  it('resolves every $ref', () => {
    const refs = collectRefs(doc);
    expect(refs.length).to.be.greaterThan(100);
    for (const ref of refs) {
      expect(ref.startsWith('#/'), ref).to.equal(true);
      const target = ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
      expect(target, ref).to.not.equal(undefined);
    }
  });

  it('describes the invoice PDFs as application/pdf and errors with the error envelope', () => {
    const pdf = doc.paths['/invoices/api/{id}/pdf']!.get!.responses as Record<string, { content?: object }>;
    expect(pdf['200']!.content).to.have.key('application/pdf');
    expect(pdf['404']).to.deep.equal({ $ref: '#/components/responses/NotFound' });
    const schemas = doc.components.schemas as Record<string, { required?: string[] }>;
    expect(schemas.ErrorEnvelope!.required).to.have.members(['success', 'error', 'details']);
  });

  it('describes the balance transactions as JSON or, on Accept: text/csv, a CSV export', () => {
    for (const path of ['/balance-transactions/api/list', '/balance-transactions']) {
      const ok = (doc.paths[path]!.get!.responses as Record<string, { content?: object }>)['200']!;
      expect(ok.content, path).to.have.keys('application/json', 'text/csv');
    }
  });

  it('exposes the webhook payloads', () => {
    expect(Object.keys(doc.webhooks as object)).to.have.members([
      'payment.completed',
      'payment.failed',
      'refund.created',
      'refund.completed',
      'refund.failed',
      'checkout.session.completed',
      'checkout.session.expired',
      'withdrawal.completed',
      'withdrawal.failed',
      'invoice.issued',
    ]);
  });
});

/** True when an earlier `path` would catch requests meant for the `later` literal segments. */
function shadows(path: string, later: string): boolean {
  const a = path.split('/');
  const b = later.split('/');
  if (a.length !== b.length || path === later) return false;
  return a.every((seg, i) => seg === b[i] || (seg.startsWith(':') && !b[i]!.startsWith(':')));
}

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else collectRefs(value, out);
    }
  }
  return out;
}
