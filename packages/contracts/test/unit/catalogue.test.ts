import { expect } from 'chai';
import {
  ApiPaymentListQuery,
  allRoutes,
  buildOpenApiDocument,
  eventBinding,
  eventRoutingKey,
  orderRoutes,
  routeById,
  routes,
  routesOf,
  toOpenApiPath,
} from '../../src/index.js';

describe('route catalogue', () => {
  it('keeps internal routes out of the merchant-facing table and the OpenAPI document', () => {
    const internal = allRoutes.filter((r) => r.internal);
    expect(internal.map((r) => r.operationId)).to.have.members([
      'getInternalWallet',
      'getInternalWalletBalances',
      'listRelayers',
      'getCctpFeeInputs',
      'getInternalInvoicePdf',
      'getInternalPayment',
      'checkGaslessAuthorization',
      'getGaslessTokenDomain',
      'getGaslessGasEstimate',
    ]);
    expect(routes.some((r) => r.internal)).to.equal(false);
    const doc = buildOpenApiDocument();
    for (const r of internal) expect(doc.paths[toOpenApiPath(r.path)]).to.equal(undefined);
    expect(routesOf('chain-watcher').map((r) => r.operationId)).to.include('listRelayers');
  });

  it('serves every route: none is left planned, invoices and withdrawals included', () => {
    const doc = buildOpenApiDocument();
    expect(routes.filter((r) => r.planned).map((r) => r.operationId)).to.deep.equal([]);
    for (const r of routes.filter((x) => x.service === 'invoicing')) {
      const op = doc.paths[toOpenApiPath(r.path)]![r.method]!;
      expect(op['x-status'], r.operationId).to.equal(undefined);
      expect(op.responses as Record<string, unknown>, r.operationId).to.not.have.property('501');
    }
    expect(routesOf('invoicing').map((r) => r.operationId)).to.include.members([
      'listInvoices',
      'getInvoicePdfApi',
      'rectifyInvoice',
      'createWithdrawalApi',
      'getBillingProfile',
      'updateBillingProfile',
    ]);
  });

  it('finds a route by operation id with its literal path', () => {
    expect(routeById('getPaymentStatus').path).to.equal('/payments/:id/status');
    expect(() => routeById('nope' as never)).to.throw(/no route nope/);
  });

  it('orders every table so that no parameter segment shadows a static one', () => {
    const ordered = orderRoutes([
      { path: '/payments/:id' },
      { path: '/payments/cctp-fee' },
      { path: '/payments/api/:id' },
      { path: '/payments/api/list' },
    ]).map((r) => r.path);
    expect(ordered.indexOf('/payments/cctp-fee')).to.be.lessThan(ordered.indexOf('/payments/:id'));
    expect(ordered.indexOf('/payments/api/list')).to.be.lessThan(ordered.indexOf('/payments/api/:id'));
  });
});

describe('query integers', () => {
  it('accepts decimal digits only', () => {
    expect(ApiPaymentListQuery.parse({ limit: '25', offset: '0' })).to.include({ limit: 25, offset: 0 });
    for (const bad of ['0x10', '1e2', ' 5', '5.0', '-1', '+3', '', '007']) {
      const r = ApiPaymentListQuery.safeParse({ limit: bad });
      expect(r.success, `limit=${JSON.stringify(bad)}`).to.equal(false);
    }
  });
});

describe('event routing', () => {
  it('addresses transfer outcomes to the requester by purpose, and routes everything else by type', () => {
    const data = { idempotencyKey: 'k', purpose: 'withdrawal', txHash: '0x', blockNumber: 1 };
    expect(eventRoutingKey({ type: 'transfer.confirmed', data })).to.equal('transfer.confirmed.withdrawal');
    expect(eventRoutingKey({ type: 'payment.completed', data: {} })).to.equal('payment.completed');
    expect(eventBinding('transfer.failed', 'refund')).to.equal('transfer.failed.refund');
    expect(eventBinding('payment.completed')).to.equal('payment.completed');
    expect(() => eventBinding('transfer.failed')).to.throw(/addressed/);
  });
});
