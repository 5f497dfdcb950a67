import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  API_KEY_SCOPES,
  DEFAULT_API_KEY_SCOPES,
  routeById,
  routes,
  type RouteSpec,
} from '@stablepay/contracts';
import { createDatabase, migrate } from '@stablepay/platform';
import { createTestDatabase } from '@stablepay/platform/testing';
import { gatewayMigrations } from '../../src/index.js';
import {
  bearer,
  call,
  createKey,
  signUp,
  startEchoUpstream,
  startTestGateway,
  type Account,
  type EchoUpstream,
  type TestGateway,
} from './harness.js';

describe('gateway: API key scopes', () => {
  let upstream: EchoUpstream;
  let gw: TestGateway;
  let account: Account;

  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway(upstream.url);
    account = await signUp(gw.url);
  });
  after(async () => {
    await gw?.close();
    await upstream?.close();
  });

  const keyCount = async () => Number((await gw.db('api_keys').count({ n: '*' }))[0]!.n);

  it('gives a key created with only a name the default set: every scope but withdrawals:write', async () => {
    const created = await call(gw.url, 'POST', '/api-keys', {
      body: { name: 'shop server' },
      headers: bearer(account.accessToken),
    });
    expect(created.status).to.equal(201);
    expect(created.body.data.scopes).to.deep.equal([...DEFAULT_API_KEY_SCOPES]);
    expect(created.body.data.scopes).to.not.include('withdrawals:write');
    const row = await gw.db('api_keys').where({ id: created.body.data.id }).first();
    expect(row.scopes).to.deep.equal([...DEFAULT_API_KEY_SCOPES]);
  });

  it('creates a key with the scopes asked for, listed in the catalogue’s order', async () => {
    const created = await call(gw.url, 'POST', '/api-keys', {
      body: { name: 'payouts', scopes: ['withdrawals:write', 'balance:read', 'withdrawals:read'] },
      headers: bearer(account.accessToken),
    });
    expect(created.status).to.equal(201);
    const ordered = ['balance:read', 'withdrawals:read', 'withdrawals:write'];
    expect(created.body.data.scopes).to.deep.equal(ordered);
    const list = await call(gw.url, 'GET', '/api-keys', { headers: bearer(account.accessToken) });
    const listed = list.body.data.find((k: { id: string }) => k.id === created.body.data.id);
    expect(listed.scopes).to.deep.equal(ordered);
    const audit = await gw
      .db('audit_log')
      .where({ action: 'api_key.created', api_key_id: listed.id })
      .first();
    expect(audit.details.scopes).to.equal(ordered.join(' '));
  });

  it('refuses empty, unknown, repeated or mistyped scopes with 400 naming the field, and makes no key', async () => {
    const before = await keyCount();
    const cases: Array<[unknown, string, string]> = [
      [[], 'scopes', 'too_small'],
      [['checkout:write', 'admin:all'], 'scopes.1', 'invalid_value'],
      [['refunds:read', 'refunds:read'], 'scopes', 'custom'],
      ['payments:read', 'scopes', 'invalid_type'],
      [null, 'scopes', 'invalid_type'],
    ];
    for (const [scopes, path, code] of cases) {
      const res = await call(gw.url, 'POST', '/api-keys', {
        body: { name: 'bad', scopes },
        headers: bearer(account.accessToken),
      });
      expect(res.status, JSON.stringify(scopes)).to.equal(400);
      expect(res.body.success).to.equal(false);
      expect(res.body.details, JSON.stringify(scopes)).to.deep.include.members([
        { path, code, message: res.body.details.find((d: { path: string }) => d.path === path)?.message },
      ]);
    }
    expect(await keyCount()).to.equal(before);
  });

  it('refuses a key without the route’s scope with 403 insufficient_scope, forwarding and recording nothing', async () => {
    const { key } = await createKey(gw.url, account, 'checkout only', ['checkout:write']);
    const seen = upstream.seen.length;
    const idempotencyRows = await gw.db('idempotency_records').count({ n: '*' });
    const list = await call(gw.url, 'GET', '/payments/api/list', { headers: { 'x-api-key': key } });
    expect(list.status).to.equal(403);
    expect(list.body).to.deep.equal({
      success: false,
      error: 'This API key lacks the scope payments:read',
      details: [
        {
          path: '',
          code: 'insufficient_scope',
          message: 'The API key needs the scope payments:read: create a key that holds it',
        },
      ],
    });
    const refund = await call(gw.url, 'POST', '/refunds/api/create', {
      headers: { 'x-api-key': key, 'idempotency-key': randomUUID() },
      body: { paymentId: randomUUID(), reason: 'other' },
    });
    expect(refund.status).to.equal(403);
    expect(refund.body.details[0].code).to.equal('insufficient_scope');
    expect(refund.body.details[0].message).to.contain('refunds:write');
    // Refused before validation: a body the route would refuse still gets the scope's answer.
    const malformed = await call(gw.url, 'POST', '/refunds/api/create', {
      headers: { 'x-api-key': key },
      body: { nonsense: true },
    });
    expect(malformed.status).to.equal(403);
    expect(upstream.seen.length).to.equal(seen);
    expect(await gw.db('idempotency_records').count({ n: '*' })).to.deep.equal(idempotencyRows);

    const allowed = await call(gw.url, 'POST', '/checkout/sessions', {
      headers: { 'x-api-key': key },
      body: { amount: '10.00', currency: 'USDC', return_url: 'https://shop.example/thanks' },
    });
    expect(allowed.status).to.equal(201);
    expect(upstream.seen.length).to.equal(seen + 1);
  });

  it('refuses withdrawals to a default key, and forwards them for a key given withdrawals:write', async () => {
    const standard = await createKey(gw.url, account, 'standard');
    const body = { currency: 'USDC', destination_address: `0x${'ab'.repeat(20)}` };
    const seen = upstream.seen.length;
    const refused = await call(gw.url, 'POST', '/withdrawals/api/create', {
      headers: { 'x-api-key': standard.key },
      body,
    });
    expect(refused.status).to.equal(403);
    expect(refused.body.details).to.deep.equal([
      {
        path: '',
        code: 'insufficient_scope',
        message: 'The API key needs the scope withdrawals:write: create a key that holds it',
      },
    ]);
    expect(upstream.seen.length).to.equal(seen);
    // Reading withdrawals stays in the default set.
    const listed = await call(gw.url, 'GET', '/withdrawals/api/list', {
      headers: { 'x-api-key': standard.key },
    });
    expect(listed.status).to.equal(200);

    const payouts = await createKey(gw.url, account, 'payouts', ['withdrawals:write']);
    const passed = await call(gw.url, 'POST', '/withdrawals/api/create', {
      headers: { 'x-api-key': payouts.key },
      body,
    });
    expect(passed.status).to.equal(201);
    // The internal token carries exactly the key's scopes, for the owning service to check again.
    expect(passed.body.data.claims).to.include({ caller: 'api_key', apiKeyId: payouts.id });
    expect(passed.body.data.claims.scopes).to.deep.equal(['withdrawals:write']);
    expect(listed.body.data.claims.scopes).to.deep.equal([...DEFAULT_API_KEY_SCOPES]);
  });

  it('does not limit a dashboard session by scope, and sends it no scopes', async () => {
    const res = await call(gw.url, 'POST', '/withdrawals', {
      headers: bearer(account.accessToken),
      body: { currency: 'USDC', destination_address: `0x${'cd'.repeat(20)}` },
    });
    expect(res.status).to.equal(201);
    expect(res.body.data.claims.caller).to.equal('user');
    expect(res.body.data.claims).to.not.have.property('scopes');
  });

  it('refuses every key route of the catalogue to a key holding every scope but its own', async () => {
    const keys = new Map<string, string>();
    for (const scope of API_KEY_SCOPES) {
      const others = API_KEY_SCOPES.filter((s) => s !== scope);
      keys.set(scope, (await createKey(gw.url, account, `all but ${scope}`, others)).key);
    }
    const seen = upstream.seen.length;
    const keyRoutes = routes.filter((r) => r.auth === 'key' || r.auth === 'jwt_or_key');
    expect(keyRoutes.length).to.be.at.least(30);
    for (const route of keyRoutes) {
      const path = route.path.replace(/:[A-Za-z]+/g, randomUUID());
      const res = await call(gw.url, route.method.toUpperCase(), path, {
        headers: { 'x-api-key': keys.get(route.scope!)! },
        ...(route.method === 'get' ? {} : { body: {} }),
      });
      const where = `${route.method.toUpperCase()} ${route.path}`;
      expect(res.status, where).to.equal(403);
      expect(res.body.details[0].code, where).to.equal('insufficient_scope');
      expect(res.body.details[0].message, where).to.contain(route.scope);
    }
    expect(upstream.seen.length).to.equal(seen);
  });

  it('does not start when a route an API key may call declares no scope', async () => {
    const unscoped = { ...routeById('listRefunds'), scope: undefined } as unknown as RouteSpec;
    let failure: unknown;
    try {
      const started = await startTestGateway(upstream.url, {}, { catalogue: [...routes, unscoped] });
      await started.close();
    } catch (err) {
      failure = err;
    }
    expect(String(failure)).to.match(
      /listRefunds \(GET \/refunds\/api\/list\) admits an API key but declares no scope/,
    );
  });
});

describe('gateway migration: API key scopes', () => {
  it('gives every key that existed before scopes the default set as it stood then, never withdrawals:write', async () => {
    const database = await createTestDatabase();
    const db = await createDatabase({ url: database.url, schema: 'gateway' });
    try {
      const before = gatewayMigrations.findIndex((m) => m.name === '0007_api_key_scopes');
      expect(before).to.be.greaterThan(0);
      await migrate(db, 'gateway', gatewayMigrations.slice(0, before));
      const merchantId = randomUUID();
      await db('merchants').insert({
        id: merchantId,
        public_id: `sp_live_${merchantId}`,
        name: 'Old Shop',
        blockchain: 'BASE',
        accepted_currencies: ['USDC'],
      });
      const ids = [randomUUID(), randomUUID()];
      await db('api_keys').insert(
        ids.map((id, i) => ({
          id,
          merchant_id: merchantId,
          name: `old ${i}`,
          key_digest: `${i}`.repeat(64),
          last4: 'abcd',
          revoked_at: i === 1 ? new Date() : null,
        })),
      );
      await migrate(db, 'gateway', gatewayMigrations);
      const rows = await db('api_keys').whereIn('id', ids).select('scopes');
      // The settings scopes came later: a key of that time was never given them.
      const thenDefault = DEFAULT_API_KEY_SCOPES.filter((s) => !s.startsWith('settings:'));
      for (const row of rows) expect(row.scopes).to.deep.equal(thenDefault);
      // No column default: a key is only ever made with the scopes its creator named.
      const missing = await db('api_keys')
        .insert({
          id: randomUUID(),
          merchant_id: merchantId,
          name: 'x',
          key_digest: 'f'.repeat(64),
          last4: 'ffff',
        })
        .then(
          () => undefined,
          (err: { code?: string }) => err.code,
        );
      expect(missing).to.equal('23502');
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
