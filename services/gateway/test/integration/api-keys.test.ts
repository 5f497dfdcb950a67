import { expect } from 'chai';
import { DEFAULT_API_KEY_SCOPES } from '@stablepay/contracts';
import {
  bearer,
  call,
  createKey,
  signUp,
  startEchoUpstream,
  startReplica,
  startTestGateway,
  type EchoUpstream,
  type Replica,
  type TestGateway,
} from './harness.js';

describe('gateway: API keys', () => {
  let upstream: EchoUpstream;
  let gw: TestGateway;
  let replica: Replica;

  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway(upstream.url);
    // A second replica on the same database: revocation must hold there at once too.
    replica = await startReplica(gw, upstream.url);
  });
  after(async () => {
    await replica?.stop();
    await gw?.close();
    await upstream?.close();
  });

  it('creates a key shown once, stores only its HMAC digest, and lists it masked', async () => {
    const account = await signUp(gw.url);
    const created = await call(gw.url, 'POST', '/api-keys', {
      body: { name: 'Production server' },
      headers: bearer(account.accessToken),
    });
    expect(created.status).to.equal(201);
    expect(created.body.success).to.equal(true);
    expect(created.body.message).to.be.a('string');
    const { id, name, key, created_at, scopes } = created.body.data;
    expect(Object.keys(created.body.data).sort()).to.deep.equal([
      'created_at',
      'id',
      'key',
      'name',
      'scopes',
    ]);
    expect(scopes).to.deep.equal([...DEFAULT_API_KEY_SCOPES]);
    expect(name).to.equal('Production server');
    expect(key).to.match(/^sk_live_[A-Za-z0-9_-]{43}$/);
    expect(new Date(created_at).toISOString()).to.equal(created_at);

    const row = await gw.db('api_keys').where({ id }).first();
    expect(row.key_digest).to.match(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.to.include(key.slice(8));
    expect(row.last4).to.equal(key.slice(-4));

    const list = await call(gw.url, 'GET', '/api-keys', { headers: bearer(account.accessToken) });
    expect(list.status).to.equal(200);
    expect(list.body.data).to.deep.equal([{ id, name, last4: key.slice(-4), created_at, scopes }]);
    expect(list.text).not.to.include(key);
  });

  it('validates the key name (1-50 chars)', async () => {
    const account = await signUp(gw.url);
    for (const name of ['', 'x'.repeat(51)]) {
      const res = await call(gw.url, 'POST', '/api-keys', {
        body: { name },
        headers: bearer(account.accessToken),
      });
      expect(res.status).to.equal(400);
      expect(res.body.details[0].path).to.equal('name');
    }
  });

  it('authenticates key routes and rejects missing, malformed and unknown keys with 401', async () => {
    const account = await signUp(gw.url);
    const { key } = await createKey(gw.url, account);
    expect(
      (await call(gw.url, 'GET', '/payments/api/list', { headers: { 'x-api-key': key } })).status,
    ).to.equal(200);
    const missing = await call(gw.url, 'GET', '/payments/api/list');
    expect(missing.status).to.equal(401);
    expect(missing.body.success).to.equal(false);
    expect(missing.body.details).to.deep.equal([]);
    for (const bad of ['nonsense', `sk_live_${'A'.repeat(43)}`]) {
      const res = await call(gw.url, 'GET', '/payments/api/list', { headers: { 'x-api-key': bad } });
      expect(res.status).to.equal(401);
    }
    const withBearer = await call(gw.url, 'GET', '/payments/api/list', {
      headers: bearer(account.accessToken),
    });
    expect(withBearer.status).to.equal(401);
    expect(withBearer.body.error).to.match(/API key/);
  });

  it('revokes a key with immediate effect on every replica', async () => {
    const account = await signUp(gw.url);
    const { id, key } = await createKey(gw.url, account);
    expect(
      (await call(replica.url, 'GET', '/wallets/api/balance', { headers: { 'x-api-key': key } })).status,
    ).to.equal(200);

    const del = await call(gw.url, 'DELETE', `/api-keys/${id}`, { headers: bearer(account.accessToken) });
    expect(del.status).to.equal(200);
    expect(del.body).to.deep.equal({ success: true, message: 'API key revoked' });

    for (const instance of [gw, replica]) {
      const res = await call(instance.url, 'GET', '/wallets/api/balance', { headers: { 'x-api-key': key } });
      expect(res.status).to.equal(401);
    }
    const list = await call(gw.url, 'GET', '/api-keys', { headers: bearer(account.accessToken) });
    expect(list.body.data).to.deep.equal([]);
    expect(
      (await call(gw.url, 'DELETE', `/api-keys/${id}`, { headers: bearer(account.accessToken) })).status,
    ).to.equal(404);
  });

  it("answers 404 for another merchant's key and leaves it working", async () => {
    const owner = await signUp(gw.url, 'Owner');
    const intruder = await signUp(gw.url, 'Intruder');
    const { id, key } = await createKey(gw.url, owner);
    const res = await call(gw.url, 'DELETE', `/api-keys/${id}`, { headers: bearer(intruder.accessToken) });
    expect(res.status).to.equal(404);
    expect(res.body.success).to.equal(false);
    const intruderList = await call(gw.url, 'GET', '/api-keys', { headers: bearer(intruder.accessToken) });
    expect(intruderList.body.data).to.deep.equal([]);
    expect(
      (await call(gw.url, 'GET', '/payments/api/list', { headers: { 'x-api-key': key } })).status,
    ).to.equal(200);
  });

  it('refuses to let an API key manage API keys (403) and needs a credential (401)', async () => {
    const account = await signUp(gw.url);
    const { id, key } = await createKey(gw.url, account);
    const attempts = [
      call(gw.url, 'POST', '/api-keys', { body: { name: 'by key' }, headers: { 'x-api-key': key } }),
      call(gw.url, 'GET', '/api-keys', { headers: { 'x-api-key': key } }),
      call(gw.url, 'DELETE', `/api-keys/${id}`, { headers: { 'x-api-key': key } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({
        success: false,
        error: 'API keys cannot manage API keys',
        details: [],
      });
    }
    expect((await call(gw.url, 'GET', '/api-keys')).status).to.equal(401);
    expect((await call(gw.url, 'POST', '/api-keys', { body: { name: 'x' } })).status).to.equal(401);
  });

  it('records when a key was last used', async () => {
    const account = await signUp(gw.url);
    const { id, key } = await createKey(gw.url, account);
    expect((await gw.db('api_keys').where({ id }).first()).last_used_at).to.equal(null);
    await call(gw.url, 'GET', '/payments/api/list', { headers: { 'x-api-key': key } });
    const deadline = Date.now() + 5000;
    let used: Date | null = null;
    while (!used && Date.now() < deadline) {
      used = (await gw.db('api_keys').where({ id }).first()).last_used_at;
      if (!used) await new Promise((r) => setTimeout(r, 25));
    }
    expect(used).to.be.instanceOf(Date);
  });

  it('audits key creation and revocation without the key', async () => {
    const account = await signUp(gw.url);
    const { id, key } = await createKey(gw.url, account);
    await call(gw.url, 'DELETE', `/api-keys/${id}`, { headers: bearer(account.accessToken) });
    const rows = await gw.db('audit_log').where({ api_key_id: id }).orderBy('id');
    expect(rows.map((r) => r.action)).to.deep.equal(['api_key.created', 'api_key.revoked']);
    expect(JSON.stringify(rows)).not.to.include(key);
  });
});
