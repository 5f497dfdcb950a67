import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import { base32Decode, stepAt, totpCode } from '../../src/mfa/totp.js';
import {
  STRONG_PASSWORD,
  bearer,
  call,
  closedPortUrl,
  createKey,
  signUp,
  startTestGateway,
  type TestGateway,
} from './harness.js';

const NEW_PASSWORD = 'a much longer passphrase 2';

describe('gateway: two-factor sign-in, password change and the audit log', () => {
  let gw: TestGateway;

  before(async () => {
    // Sign-ins are many here; the per-IP limit of credential routes is the edge suite's subject.
    gw = await startTestGateway(await closedPortUrl(), { RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
  });
  after(async () => {
    await gw?.close();
  });

  /** The code an authenticator shows `offset` steps from now. */
  const codeOf = (secret: string, offset = 0) => totpCode(base32Decode(secret), stepAt(Date.now()) + offset);
  const loginStep1 = (email: string, password = STRONG_PASSWORD) =>
    call(gw.url, 'POST', '/auth/login', { body: { email, password } });

  it('enrols an authenticator, then asks for a code at sign-in; codes and recovery codes work once', async () => {
    const me = await signUp(gw.url);
    const auth = { headers: bearer(me.accessToken) };
    expect((await call(gw.url, 'GET', '/auth/mfa', auth)).body.data).to.deep.equal({
      totp_enabled: false,
      enabled_at: null,
      recovery_codes_left: 0,
    });

    const setup = await call(gw.url, 'POST', '/auth/mfa/totp/setup', auth);
    expect(setup.status).to.equal(200);
    const { secret, otpauth_url } = setup.body.data;
    expect(secret).to.match(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).to.contain(`secret=${secret}`).and.contain(encodeURIComponent(me.email));
    // Stored sealed, never as the base32 text.
    const row = await gw.db('users').where({ id: me.userId }).first();
    expect(row.totp_pending_secret.toString('latin1')).not.to.contain(secret);

    const wrong = await call(gw.url, 'POST', '/auth/mfa/totp/enable', {
      ...auth,
      body: { code: codeOf(secret, 5) },
    });
    expect(wrong.status).to.equal(422);
    expect(wrong.body.details[0]).to.include({ path: 'code', code: 'invalid_code' });
    const bad = await call(gw.url, 'POST', '/auth/mfa/totp/enable', { ...auth, body: { code: '12ab56' } });
    expect(bad.status).to.equal(400);

    const enabled = await call(gw.url, 'POST', '/auth/mfa/totp/enable', {
      ...auth,
      body: { code: codeOf(secret) },
    });
    expect(enabled.status, enabled.text).to.equal(200);
    const codes: string[] = enabled.body.data.recovery_codes;
    expect(codes).to.have.length(10);
    expect(new Set(codes).size).to.equal(10);
    for (const c of codes) expect(c).to.match(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await call(gw.url, 'GET', '/auth/mfa', auth)).body.data).to.include({
      totp_enabled: true,
      recovery_codes_left: 10,
    });

    // The password alone is no longer enough.
    const first = await loginStep1(me.email);
    expect(first.status).to.equal(200);
    expect(first.body.data).to.have.keys(['mfa_required', 'mfa_token', 'expires_in']);
    expect(first.body.data).not.to.have.property('access_token');
    const token = first.body.data.mfa_token;
    const wrongCode = await call(gw.url, 'POST', '/auth/login/mfa', {
      body: { mfa_token: token, code: '000000' },
    });
    expect(wrongCode.status).to.equal(401);
    expect(wrongCode.body.details[0]).to.include({ path: 'code', message: '4 attempts left' });
    // The code used to enrol is spent; the next step's is accepted (one step of drift).
    const spent = await call(gw.url, 'POST', '/auth/login/mfa', {
      body: { mfa_token: token, code: codeOf(secret) },
    });
    expect(spent.status).to.equal(401);
    const next = codeOf(secret, 1);
    const second = await call(gw.url, 'POST', '/auth/login/mfa', { body: { mfa_token: token, code: next } });
    expect(second.status, second.text).to.equal(200);
    expect(second.body.data).to.include({ token_type: 'Bearer' });
    // A challenge signs in once; a code is accepted once.
    expect(
      (await call(gw.url, 'POST', '/auth/login/mfa', { body: { mfa_token: token, code: next } })).status,
    ).to.equal(401);
    const again = (await loginStep1(me.email)).body.data.mfa_token;
    expect(
      (await call(gw.url, 'POST', '/auth/login/mfa', { body: { mfa_token: again, code: next } })).status,
    ).to.equal(401);

    // A recovery code, typed in capitals without its dash, signs in once.
    const typed = codes[0]!.replace('-', '').toUpperCase();
    const recovered = await call(gw.url, 'POST', '/auth/login/mfa', {
      body: { mfa_token: again, code: typed },
    });
    expect(recovered.status, recovered.text).to.equal(200);
    const third = (await loginStep1(me.email)).body.data.mfa_token;
    expect(
      (await call(gw.url, 'POST', '/auth/login/mfa', { body: { mfa_token: third, code: codes[0] } })).status,
    ).to.equal(401);
    expect((await call(gw.url, 'GET', '/auth/mfa', auth)).body.data.recovery_codes_left).to.equal(9);

    // Five wrong codes burn the challenge: the right one no longer helps.
    const burnt = (await loginStep1(me.email)).body.data.mfa_token;
    for (let i = 0; i < 5; i++)
      await call(gw.url, 'POST', '/auth/login/mfa', { body: { mfa_token: burnt, code: '111111' } });
    const late = await call(gw.url, 'POST', '/auth/login/mfa', {
      body: { mfa_token: burnt, code: codes[1] },
    });
    expect(late.status).to.equal(401);
    expect(late.body.error).to.equal('Sign-in expired or not found; sign in again');

    // Turned off with the password and a recovery code: the password alone signs in again.
    const off = await call(gw.url, 'POST', '/auth/mfa/totp/disable', {
      ...auth,
      body: { password: STRONG_PASSWORD, code: codes[2] },
    });
    expect(off.status, off.text).to.equal(200);
    expect(off.body.data).to.deep.equal({ totp_enabled: false, enabled_at: null, recovery_codes_left: 0 });
    expect((await loginStep1(me.email)).body.data).to.have.property('access_token');
  });

  it('changes the password, ending every other session', async () => {
    const me = await signUp(gw.url);
    const other = (await loginStep1(me.email)).body.data;
    const wrong = await call(gw.url, 'POST', '/auth/password', {
      headers: bearer(me.accessToken),
      body: { current_password: 'not the password at all', new_password: NEW_PASSWORD },
    });
    expect(wrong.status).to.equal(422);
    expect(wrong.body.details[0]).to.include({ path: 'current_password', code: 'wrong_password' });
    const short = await call(gw.url, 'POST', '/auth/password', {
      headers: bearer(me.accessToken),
      body: { current_password: STRONG_PASSWORD, new_password: 'short' },
    });
    expect(short.status).to.equal(400);

    const changed = await call(gw.url, 'POST', '/auth/password', {
      headers: bearer(me.accessToken),
      body: { current_password: STRONG_PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(changed.status, changed.text).to.equal(200);
    expect(changed.body.data).to.include({ token_type: 'Bearer' });
    for (const old of [me.refreshToken, other.refresh_token])
      expect((await call(gw.url, 'POST', '/auth/refresh', { body: { refresh_token: old } })).status).to.equal(
        401,
      );
    expect(
      (
        await call(gw.url, 'POST', '/auth/refresh', {
          body: { refresh_token: changed.body.data.refresh_token },
        })
      ).status,
    ).to.equal(200);
    expect((await loginStep1(me.email)).status).to.equal(401);
    expect((await loginStep1(me.email, NEW_PASSWORD)).status).to.equal(200);
  });

  it("lists the merchant's security actions newest first, to its dashboard only", async () => {
    const me = await signUp(gw.url);
    const someoneElse = await signUp(gw.url);
    await loginStep1(me.email, 'wrong password, wrong');
    const { key } = await createKey(gw.url, me, 'server');
    const log = await call(gw.url, 'GET', '/audit-log?limit=10', { headers: bearer(me.accessToken) });
    expect(log.status).to.equal(200);
    const actions = log.body.data.entries.map((e: { action: string }) => e.action);
    expect(actions).to.deep.equal([
      'api_key.created',
      'auth.login_failed',
      'auth.login_succeeded',
      'user.registered',
    ]);
    expect(log.body.data.entries[0]).to.include({ actor: 'user' });
    const failed = log.body.data.entries[1];
    expect(failed).to.include({ actor: 'user' });
    expect(failed.details).to.deep.equal({ email: me.email, reason: 'wrong_password' });
    expect(JSON.stringify(log.body)).not.to.contain('wrong password');
    expect(log.body.data).to.include({ total: 4, limit: 10, offset: 0 });

    const filtered = await call(gw.url, 'GET', '/audit-log?action=auth.login_failed', {
      headers: bearer(me.accessToken),
    });
    expect(filtered.body.data.entries).to.have.length(1);
    const bad = await call(gw.url, 'GET', '/audit-log?action=nope', { headers: bearer(me.accessToken) });
    expect(bad.status).to.equal(400);
    const theirs = await call(gw.url, 'GET', '/audit-log', { headers: bearer(someoneElse.accessToken) });
    expect(theirs.body.data.entries.map((e: { action: string }) => e.action)).to.deep.equal([
      'auth.login_succeeded',
      'user.registered',
    ]);
    expect((await call(gw.url, 'GET', '/audit-log', { headers: { 'x-api-key': key } })).status).to.equal(401);
  });

  it('records refunds and withdrawals from their events, once each', async () => {
    const me = await signUp(gw.url);
    const merchantId = (await gw.db('merchants').where({ public_id: me.merchantPublicId }).first()).id;
    const refund = {
      refund_id: randomUUID(),
      payment_id: randomUUID(),
      merchant_id: merchantId,
      amount: '5.000000',
      currency: 'USDC',
      status: 'pending',
      destination_address: '0x1111111111111111111111111111111111111111',
      blockchain: 'BASE',
      reason: 'duplicate',
      tx_hash: null,
    } as const;
    await gw.publish('refund.created', refund, { producer: 'refunds', times: 2 });
    await gw.publish(
      'withdrawal.requested',
      {
        withdrawalId: randomUUID(),
        merchantId,
        amount: '20.000000',
        fee: '0.100000',
        netAmount: '19.900000',
        currency: 'USDC',
        blockchain: 'BASE',
        destinationAddress: '0x2222222222222222222222222222222222222222',
        treasuryAddress: '0x3333333333333333333333333333333333333333',
        requestedAt: new Date().toISOString(),
      },
      { producer: 'invoicing' },
    );
    const entries = await waitFor(async () => {
      const log = await call(gw.url, 'GET', '/audit-log', { headers: bearer(me.accessToken) });
      const found = log.body.data.entries.filter((e: { actor: string }) => e.actor === 'system');
      return found.length >= 2 ? found : undefined;
    }, 'audit entries from events');
    expect(entries.map((e: { action: string }) => e.action).sort()).to.deep.equal([
      'refund.created',
      'withdrawal.requested',
    ]);
    const created = entries.find((e: { action: string }) => e.action === 'refund.created');
    expect(created.details).to.deep.equal({
      refundId: refund.refund_id,
      paymentId: refund.payment_id,
      amount: '5.000000',
      currency: 'USDC',
      reason: 'duplicate',
    });
  });
  it('records webhook endpoint changes from the notifier, once each, naming the user or the key', async () => {
    const me = await signUp(gw.url);
    const someoneElse = await signUp(gw.url);
    const merchantId = (await gw.db('merchants').where({ public_id: me.merchantPublicId }).first()).id;
    const key = await createKey(gw.url, me, 'billing server');
    const endpointId = randomUUID();
    const url = 'https://shop.example/hooks';
    const byKey = {
      merchantId,
      endpointId,
      url,
      callerKind: 'api_key',
      userId: null,
      apiKeyId: key.id,
    } as const;
    await gw.publish('webhook_endpoint.created', byKey, { producer: 'notifier', times: 2 });
    await gw.publish(
      'webhook_endpoint.secret_regenerated',
      { merchantId, endpointId, url, callerKind: 'user', userId: me.userId, apiKeyId: null },
      { producer: 'notifier' },
    );
    await gw.publish('webhook_endpoint.deleted', byKey, { producer: 'notifier' });
    const entries = await waitFor(async () => {
      const log = await call(gw.url, 'GET', '/audit-log', { headers: bearer(me.accessToken) });
      const found = log.body.data.entries.filter((e: { action: string }) =>
        e.action.startsWith('webhook_endpoint.'),
      );
      return found.length >= 3 ? found : undefined;
    }, 'audit entries from webhook endpoint events');
    // The redelivered creation left one entry: the inbox saw it already.
    const again = await call(gw.url, 'GET', '/audit-log?action=webhook_endpoint.created', {
      headers: bearer(me.accessToken),
    });
    expect(again.body.data.total).to.equal(1);
    const byAction = Object.fromEntries(entries.map((e: { action: string }) => [e.action, e]));
    expect(byAction['webhook_endpoint.created']).to.deep.include({
      actor: 'api_key',
      details: { endpointId, url, apiKeyName: 'billing server', apiKeyLast4: key.key.slice(-4) },
    });
    expect(byAction['webhook_endpoint.secret_regenerated']).to.deep.include({
      actor: 'user',
      details: { endpointId, url },
    });
    expect(byAction['webhook_endpoint.deleted'].actor).to.equal('api_key');
    const theirs = await call(gw.url, 'GET', '/audit-log', { headers: bearer(someoneElse.accessToken) });
    expect(
      theirs.body.data.entries.filter((e: { action: string }) => e.action.startsWith('webhook_endpoint.')),
    ).to.deep.equal([]);
  });
});
