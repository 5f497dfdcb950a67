import { orderRoutes, routes } from '@stablepay/contracts';
import { expect } from 'chai';
import { corsPolicyFor } from '../../src/perimeter/cors.js';

/** Would an express path pattern match a concrete path of the same segments? */
const matches = (pattern: string, path: string): boolean => {
  const p = pattern.split('/');
  const s = path.split('/');
  return p.length === s.length && p.every((seg, i) => seg.startsWith(':') || seg === s[i]);
};

describe('route table order', () => {
  it('puts static segments before parameters', () => {
    const ordered = orderRoutes([
      { path: '/payments/:id' },
      { path: '/payments/cctp-fee' },
      { path: '/payments' },
    ]);
    expect(ordered.map((r) => r.path)).to.deep.equal(['/payments', '/payments/cctp-fee', '/payments/:id']);
  });

  it('leaves no route of the contracts table shadowed by an earlier one', () => {
    const ordered = orderRoutes(routes);
    ordered.forEach((route, i) => {
      const concrete = route.path.replace(/:[A-Za-z]+/g, 'x-param');
      const first = ordered.findIndex((r) => r.method === route.method && matches(r.path, concrete));
      expect(first, `${route.method} ${route.path}`).to.equal(i);
    });
  });

  it('keeps every route exactly once', () => {
    expect(orderRoutes(routes)).to.have.length(routes.length);
    expect(orderRoutes(routes)).to.have.members([...routes]);
  });
});

describe('CORS policy by route class', () => {
  it('opens public routes, keeps dashboard routes to their origins, closes key routes', () => {
    expect(corsPolicyFor('public', '/payments/create-public')).to.equal('open');
    expect(corsPolicyFor('public', '/auth/login')).to.equal('dashboard');
    expect(corsPolicyFor('jwt', '/api-keys')).to.equal('dashboard');
    expect(corsPolicyFor('key', '/payments/api/list')).to.equal('closed');
    expect(corsPolicyFor('jwt_or_key', '/x')).to.equal('closed');
  });
});
