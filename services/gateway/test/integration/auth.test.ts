import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import {
  STRONG_PASSWORD,
  bearer,
  call,
  closedPortUrl,
  signUp,
  startTestGateway,
  uniqueEmail,
  type TestGateway,
} from './harness.js';

describe('gateway: accounts and sessions', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startTestGateway(await closedPortUrl());
  });
  after(async () => {
    await gw?.close();
  });

  it('registers a user with its merchant (201, check your e-mail) and stores only a scrypt hash', async () => {
    const email = uniqueEmail();
    const res = await call(gw.url, 'POST', '/auth/register', {
      body: {
        email: email.toUpperCase(),
        password: STRONG_PASSWORD,
        merchantName: 'Acme',
        blockchain: 'BASE',
      },
    });
    expect(res.status).to.equal(201);
    expect(res.body).to.deep.equal({
      success: true,
      data: { email, confirmation_required: true, confirmation_expires_in: 86_400 },
    });
    const user = await gw.db('users').where({ email }).first();
    expect(user.password_hash).to.match(/^scrypt\$10\$8\$1\$/);
    expect(user.password_hash).not.to.include(STRONG_PASSWORD);
    expect(user.email_confirmed_at).to.equal(null);
    const merchant = await gw.db('merchants').where({ id: user.merchant_id }).first();
    expect(merchant).to.include({ name: 'Acme', blockchain: 'BASE', public_id: `sp_live_${merchant.id}` });
    expect(merchant.accepted_currencies).to.deep.equal(['USDC', 'EURC']);
  });

  it('rejects a weak password with 400 and a detail naming the field', async () => {
    const res = await call(gw.url, 'POST', '/auth/register', {
      body: { email: uniqueEmail(), password: 'short', merchantName: 'A', blockchain: 'BASE' },
    });
    expect(res.status).to.equal(400);
    expect(res.body.success).to.equal(false);
    expect(res.body.details.map((d: { path: string }) => d.path)).to.include('password');
  });

  it('logs in with a token pair whose access token names user and merchant', async () => {
    const account = await signUp(gw.url);
    const claims = jwt.decode(account.accessToken) as jwt.JwtPayload;
    expect(claims.sub).to.equal(account.userId);
    expect(claims.mpid).to.equal(account.merchantPublicId);
    expect(claims.exp! - claims.iat!).to.equal(900);
    expect(account.refreshToken).to.match(/^[A-Za-z0-9_-]{43}$/);
    const stored = await gw.db('refresh_tokens').where({ user_id: account.userId });
    expect(stored).to.have.length(1);
    expect(stored[0].token_digest).not.to.equal(account.refreshToken);
  });

  it('refuses wrong credentials with one message for unknown e-mail and wrong password', async () => {
    const account = await signUp(gw.url);
    const wrong = await call(gw.url, 'POST', '/auth/login', {
      body: { email: account.email, password: 'not the password!' },
    });
    const unknown = await call(gw.url, 'POST', '/auth/login', {
      body: { email: uniqueEmail(), password: STRONG_PASSWORD },
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ success: false, error: 'Invalid email or password', details: [] });
    }
  });

  it('returns the signed-in user and merchant from /auth/me', async () => {
    const account = await signUp(gw.url, 'Me Shop');
    const res = await call(gw.url, 'GET', '/auth/me', { headers: bearer(account.accessToken) });
    expect(res.status).to.equal(200);
    expect(res.body.data.user).to.deep.equal({
      id: account.userId,
      email: account.email,
      email_confirmed: false,
    });
    expect(res.body.data.merchant).to.deep.include({
      id: account.merchantPublicId,
      name: 'Me Shop',
      accepted_currencies: ['USDC'],
    });
    expect((await call(gw.url, 'GET', '/auth/me')).status).to.equal(401);
    expect((await call(gw.url, 'GET', '/auth/me', { headers: bearer('not.a.jwt') })).status).to.equal(401);
  });

  it('rotates refresh tokens; reusing a rotated token revokes the whole family', async () => {
    const account = await signUp(gw.url);
    const first = await call(gw.url, 'POST', '/auth/refresh', {
      body: { refresh_token: account.refreshToken },
    });
    expect(first.status).to.equal(200);
    const rotated = first.body.data.refresh_token as string;
    expect(rotated).not.to.equal(account.refreshToken);

    const reuse = await call(gw.url, 'POST', '/auth/refresh', {
      body: { refresh_token: account.refreshToken },
    });
    expect(reuse.status).to.equal(401);
    // The legitimate-looking newest token died with its family.
    const afterReuse = await call(gw.url, 'POST', '/auth/refresh', { body: { refresh_token: rotated } });
    expect(afterReuse.status).to.equal(401);
    const audit = await gw
      .db('audit_log')
      .where({ action: 'auth.refresh_reuse_detected', user_id: account.userId });
    expect(audit).to.have.length.greaterThan(0);
  });

  it('logout revokes the refresh token family', async () => {
    const account = await signUp(gw.url);
    const out = await call(gw.url, 'POST', '/auth/logout', { body: { refresh_token: account.refreshToken } });
    expect(out.status).to.equal(200);
    expect(out.body).to.deep.equal({ success: true, message: 'Logged out' });
    const res = await call(gw.url, 'POST', '/auth/refresh', {
      body: { refresh_token: account.refreshToken },
    });
    expect(res.status).to.equal(401);
  });

  it('keeps an append-only audit log without secrets', async () => {
    const account = await signUp(gw.url);
    await call(gw.url, 'POST', '/auth/login', {
      body: { email: account.email, password: 'wrong password here' },
    });
    const rows = await gw.db('audit_log').select('action', 'details', 'user_agent', 'ip');
    const actions = rows.map((r) => r.action);
    expect(actions).to.include.members(['user.registered', 'auth.login_succeeded', 'auth.login_failed']);
    const dump = JSON.stringify(rows);
    expect(dump).not.to.include(STRONG_PASSWORD);
    expect(dump).not.to.include('wrong password here');
    expect(dump).not.to.include(account.refreshToken);
    let blocked = false;
    try {
      await gw.db('audit_log').update({ action: 'tampered' });
    } catch {
      blocked = true;
    }
    expect(blocked).to.equal(true);
  });

  it('answers malformed JSON with the 400 envelope', async () => {
    const res = await call(gw.url, 'POST', '/auth/login', {
      raw: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.include({ success: false, error: 'Malformed JSON body' });
  });
});
