import { expect } from 'chai';
import { allRoutes, type RouteSpec } from '@stablepay/contracts';
import { unsafeTextDetails } from '@stablepay/platform';
import { createRandom } from '../support/fuzz/random.js';
import { requestsFor, type RouteContext } from '../support/fuzz/requests.js';
import { sampleValid } from '../support/fuzz/schema-model.js';

const context: RouteContext = {
  credential: { 'x-api-key': 'sk_live_test' },
  badCredentials: [{ label: 'none', headers: {} }],
  bodyLimit: 64 * 1024,
};
const served = allRoutes.filter((r) => !r.planned);
const generate = (seed: number, route: RouteSpec, quota = 150) =>
  requestsFor(route, context, createRandom(seed).fork(route.operationId), quota);

/** The request generator of the whole-stack fuzz test, checked against the contracts alone. */
describe('fuzz request generator', () => {
  it('finds a valid sample of every body, query and path schema of the catalogue to mutate', () => {
    const missing = served.flatMap((r) =>
      (['body', 'query', 'params'] as const)
        .filter((part) => r.request?.[part] && !sampleValid(r.request[part]!))
        .map((part) => `${r.operationId} ${part}`),
    );
    expect(missing).to.deep.equal([]);
  });

  it('makes the same requests from the same seed, and others from another', () => {
    const route = served.find((r) => r.operationId === 'createPublicPayment')!;
    expect(generate(7, route)).to.deep.equal(generate(7, route));
    expect(generate(7, route)).to.not.deep.equal(generate(8, route));
  });

  it('sends only bodies the route refuses when the body is what is wrong', () => {
    let checked = 0;
    for (const route of served.filter((r) => r.request?.body)) {
      for (const req of generate(3, route)) {
        if (!['field', 'missing', 'random'].includes(req.kind) || typeof req.body !== 'string') continue;
        if (req.kind === 'random' && /query|param /.test(req.label)) continue;
        const body = JSON.parse(req.body);
        const refused = unsafeTextDetails(body).length > 0 || !route.request!.body!.safeParse(body).success;
        expect(refused, `${route.operationId} ${req.label}: ${req.body.slice(0, 200)}`).to.equal(true);
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(1000);
  });

  it('fills each route to its quota with attacks of every kind, ASCII-only paths', () => {
    const kinds = new Set<string>();
    for (const route of served) {
      const requests = generate(11, route);
      expect(requests.length, route.operationId).to.be.at.least(150);
      for (const req of requests) {
        kinds.add(req.kind);
        expect(req.path, route.operationId).to.match(/^\/[\x21-\x7e]*$/);
      }
    }
    expect([...kinds]).to.include.members([
      'auth',
      'field',
      'missing',
      'query',
      'unknown-query',
      'params',
      'raw-param',
      'raw-body',
      'content-type',
      'encoding',
      'size',
      'random',
    ]);
  });
});
