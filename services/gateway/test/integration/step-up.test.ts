import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import { base32Decode, stepAt, totpCode } from '../../src/mfa/totp.js';
import {
  STRONG_PASSWORD,
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

const DASHBOARD = 'https://dashboard.example.test';
const ADDRESS = { address: '0x52908400098527886E0F7030069857D2E4169EE7', label: 'Cold wallet' };

describe('gateway: step-up before sensitive dashboard actions (the withdrawal address book)', () => {
  let gw: TestGateway;
  let upstream: EchoUpstream;

  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway(upstream.url, {
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
      STEP_UP_MAX_AGE_SECONDS: '60',
      CORS_DASHBOARD_ORIGINS: DASHBOARD,
    });
  });
  after(async () => {
    await gw?.close();
    await upstream?.close();
  });

  const codeOf = (secret: string, offset = 0) => totpCode(base32Decode(secret), stepAt(Date.now()) + offset);
  const forwardedTo = (path: string) => upstream.seen.filter((s) => s.url === path);
  const addAddress = (token: string, headers: Record<string, string> = {}) =>
    call(gw.url, 'POST', '/withdrawal-addresses', {
      body: ADDRESS,
      headers: { ...bearer(token), ...headers },
    });
  const auditOf = async (me: Account, action: string) =>
    (await call(gw.url, 'GET', `/audit-log?action=${action}`, { headers: bearer(me.accessToken) })).body.data
      .entries;
  /** Pretends the session signed in `seconds` ago, then refreshes: the new access token carries that time. */
  const ageSignIn = async (me: Account, seconds: number): Promise<string> => {
    await gw
      .db('refresh_tokens')
      .where({ user_id: me.userId })
      .update({ authenticated_at: new Date(Date.now() - seconds * 1000) });
    const refreshed = await call(gw.url, 'POST', '/auth/refresh', {
      body: { refresh_token: me.refreshToken },
    });
    expect(refreshed.status, refreshed.text).to.equal(200);
    me.refreshToken = refreshed.body.data.refresh_token;
    return refreshed.body.data.access_token;
  };

  it('forwards a recent sign-in with the step-up named in the internal token, and never the code header', async () => {
    const me = await signUp(gw.url);
    const res = await addAddress(me.accessToken, { 'x-mfa-code': '123456' });
    expect(res.status, res.text).to.equal(201);
    const [seen] = forwardedTo('/withdrawal-addresses').slice(-1);
    expect(seen!.claims).to.include({ caller: 'user', userId: me.userId, stepUp: 'recent_sign_in' });
    expect(seen!.headers).not.to.have.property('x-mfa-code');
    // The list needs no step-up, and says so to nobody.
    const list = await call(gw.url, 'GET', '/withdrawal-addresses', { headers: bearer(me.accessToken) });
    expect(list.status).to.equal(200);
    expect(forwardedTo('/withdrawal-addresses').slice(-1)[0]!.claims).not.to.have.property('stepUp');
  });

  it('asks a session whose sign-in is old to sign in again, before the service is asked', async () => {
    const me = await signUp(gw.url);
    // A refresh keeps the sign-in time: still recent after one.
    const fresh = await ageSignIn(me, 5);
    expect((await addAddress(fresh)).status).to.equal(201);

    const stale = await ageSignIn(me, 61);
    const before = upstream.seen.length;
    const refused = await addAddress(stale);
    expect(refused.status).to.equal(403);
    expect(refused.body.success).to.equal(false);
    expect(refused.body.details[0].code).to.equal('reauthentication_required');
    const removal = await call(gw.url, 'DELETE', `/withdrawal-addresses/${randomUUID()}`, {
      headers: bearer(stale),
    });
    expect(removal.body.details[0].code).to.equal('reauthentication_required');
    expect(upstream.seen.length).to.equal(before);

    // Sessions from before the sign-in time was kept count as old.
    await gw.db('refresh_tokens').where({ user_id: me.userId }).update({ authenticated_at: null });
    const refreshed = await call(gw.url, 'POST', '/auth/refresh', {
      body: { refresh_token: me.refreshToken },
    });
    expect((await addAddress(refreshed.body.data.access_token)).body.details[0].code).to.equal(
      'reauthentication_required',
    );

    // Signing in again with the password is the answer.
    const again = await call(gw.url, 'POST', '/auth/login', {
      body: { email: me.email, password: STRONG_PASSWORD },
    });
    expect((await addAddress(again.body.data.access_token)).status).to.equal(201);
  });

  it('with two-factor sign-in on, needs a current code, once each, whatever the sign-in time; wrong codes are audited and limited', async () => {
    const me = await signUp(gw.url);
    const auth = { headers: bearer(me.accessToken) };
    const { secret } = (await call(gw.url, 'POST', '/auth/mfa/totp/setup', auth)).body.data;
    expect(
      (await call(gw.url, 'POST', '/auth/mfa/totp/enable', { ...auth, body: { code: codeOf(secret) } }))
        .status,
    ).to.equal(200);
    const before = upstream.seen.length;

    const missing = await addAddress(me.accessToken);
    expect(missing.status).to.equal(403);
    expect(missing.body.details[0].code).to.equal('mfa_code_required');
    const wrong = await addAddress(me.accessToken, { 'x-mfa-code': codeOf(secret, 7) });
    expect(wrong.status).to.equal(403);
    expect(wrong.body.details[0].code).to.equal('mfa_code_invalid');
    // A recovery code signs in; it does not approve actions.
    const recovery = await addAddress(me.accessToken, { 'x-mfa-code': 'abcde-fghjk' });
    expect(recovery.body.details[0].code).to.equal('mfa_code_invalid');
    expect(upstream.seen.length).to.equal(before);

    // The enable used the current step: the next one is accepted, once.
    const code = codeOf(secret, 1);
    const ok = await addAddress(me.accessToken, { 'x-mfa-code': code });
    expect(ok.status, ok.text).to.equal(201);
    expect(forwardedTo('/withdrawal-addresses').slice(-1)[0]!.claims).to.include({ stepUp: 'mfa' });
    const replayed = await addAddress(me.accessToken, { 'x-mfa-code': code });
    expect(replayed.body.details[0].code).to.equal('mfa_code_invalid');

    const failures = await auditOf(me, 'auth.step_up_failed');
    expect(failures).to.have.length(3);
    expect(failures[0]).to.include({ actor: 'user' });

    // Five wrong codes in a quarter of an hour: no more guesses for now.
    await addAddress(me.accessToken, { 'x-mfa-code': codeOf(secret, 9) });
    await addAddress(me.accessToken, { 'x-mfa-code': codeOf(secret, 11) });
    const limited = await addAddress(me.accessToken, { 'x-mfa-code': codeOf(secret, 2) });
    expect(limited.status).to.equal(429);
    expect(limited.body.details[0].code).to.equal('too_many_attempts');
    expect(limited.headers.get('retry-after')).to.equal('900');
  });

  it('refuses API keys on the address book with 403, and dashboard CORS lets the code header through', async () => {
    const me = await signUp(gw.url);
    const { key } = await createKey(gw.url, me);
    for (const [method, path] of [
      ['GET', '/withdrawal-addresses'],
      ['POST', '/withdrawal-addresses'],
      ['DELETE', `/withdrawal-addresses/${randomUUID()}`],
    ] as const) {
      const res = await call(gw.url, method, path, {
        body: method === 'POST' ? ADDRESS : undefined,
        headers: { 'x-api-key': key },
      });
      expect(res.status, `${method} ${path}`).to.equal(403);
      expect(res.body.error).to.match(/API keys cannot/);
    }
    expect((await call(gw.url, 'GET', '/withdrawal-addresses')).status).to.equal(401);

    const preflight = await fetch(`${gw.url}/withdrawal-addresses`, {
      method: 'OPTIONS',
      headers: {
        origin: DASHBOARD,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-mfa-code',
      },
    });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers.get('access-control-allow-origin')).to.equal(DASHBOARD);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).to.contain('x-mfa-code');
  });

  it('records address book changes from the invoicing service in the audit log, once each', async () => {
    const me = await signUp(gw.url);
    const merchantId = (await gw.db('merchants').where({ public_id: me.merchantPublicId }).first()).id;
    const change = {
      merchantId,
      addressId: randomUUID(),
      address: ADDRESS.address,
      label: 'Cold wallet',
      userId: me.userId,
      stepUp: 'mfa' as const,
      usableFrom: new Date(Date.now() + 86_400_000).toISOString(),
    };
    await gw.publish(
      'withdrawal_address.added',
      { ...change, addedAt: new Date().toISOString() },
      { producer: 'invoicing', merchantId, times: 2 },
    );
    await gw.publish(
      'withdrawal_address.removed',
      { ...change, removedAt: new Date().toISOString() },
      { producer: 'invoicing', merchantId },
    );
    const entries = await waitFor(async () => {
      const added = await auditOf(me, 'withdrawal_address.added');
      const removed = await auditOf(me, 'withdrawal_address.removed');
      return added.length && removed.length ? { added, removed } : undefined;
    }, 'address book audit entries');
    await new Promise((r) => setTimeout(r, 300));
    expect(await auditOf(me, 'withdrawal_address.added')).to.have.length(1);
    expect(entries.added[0]).to.include({ actor: 'user' });
    expect(entries.added[0].details).to.deep.equal({
      addressId: change.addressId,
      address: ADDRESS.address,
      label: 'Cold wallet',
      usableFrom: change.usableFrom,
      stepUp: 'mfa',
    });
    expect(entries.removed[0].details).to.include({ addressId: change.addressId, stepUp: 'mfa' });
  });
});
