import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { pepperFingerprint } from '../../src/api-keys/key-format.js';
import { base32Decode, stepAt, totpCode } from '../../src/mfa/totp.js';
import {
  STRONG_PASSWORD,
  bearer,
  call,
  createKey,
  gatewayEnv,
  signUp,
  startEchoUpstream,
  startReplica,
  startTestGateway,
  type EchoUpstream,
  type Replica,
  type TestGateway,
} from './harness.js';

const OLD = gatewayEnv('');
const NEW_JWT = 'rotated-jwt-secret-0123456789abcdefghijk';
const NEW_PEPPER = 'rotated-api-key-pepper-0123456789abcdefg';

/**
 * The gateway before a rotation (`gw`, one secret each) and after its second step (`rotated`:
 * signing with the new values, verifying with the new or the previous ones), on one database.
 */
describe('gateway: rotating JWT_SECRET and API_KEY_PEPPER', () => {
  let upstream: EchoUpstream;
  let gw: TestGateway;
  let rotated: Replica | undefined;

  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway(upstream.url);
  });
  after(async () => {
    await rotated?.stop();
    await gw?.close();
    await upstream?.close();
  });

  const rotate = async () => {
    rotated ??= await startReplica(gw, upstream.url, {
      JWT_SECRET: NEW_JWT,
      JWT_SECRET_PREVIOUS: OLD.JWT_SECRET,
      API_KEY_PEPPER: NEW_PEPPER,
      API_KEY_PEPPER_PREVIOUS: OLD.API_KEY_PEPPER,
    });
    return rotated.url;
  };

  it('keeps access tokens signed with the previous JWT_SECRET working and refuses unknown ones', async () => {
    const account = await signUp(gw.url);
    const url = await rotate();
    expect((await call(url, 'GET', '/api-keys', { headers: bearer(account.accessToken) })).status).to.equal(
      200,
    );

    // Sign-ins on the rotated gateway get tokens signed with the new secret.
    const login = await call(url, 'POST', '/auth/login', {
      body: { email: account.email, password: STRONG_PASSWORD },
    });
    expect(login.status, login.text).to.equal(200);
    const fresh: string = login.body.data.access_token;
    expect(() => jwt.verify(fresh, NEW_JWT)).not.to.throw();
    expect((await call(url, 'GET', '/api-keys', { headers: bearer(fresh) })).status).to.equal(200);

    // The same claims under a secret that is neither current nor previous.
    const claims = jwt.decode(account.accessToken) as jwt.JwtPayload;
    const forged = jwt.sign(claims, 'some-other-secret-0123456789abcdefghijk', { algorithm: 'HS256' });
    const refused = await call(url, 'GET', '/api-keys', { headers: bearer(forged) });
    expect(refused.status).to.equal(401);
    expect(refused.body).to.include({ success: false, error: 'Invalid or expired access token' });
  });

  it('moves an API key made under the previous pepper to the current one on its first use', async () => {
    const account = await signUp(gw.url);
    const { id, key } = await createKey(gw.url, account);
    const before = await gw.db('api_keys').where({ id }).first();
    expect(before.pepper_fingerprint).to.equal(pepperFingerprint(OLD.API_KEY_PEPPER));

    const url = await rotate();
    const used = await call(url, 'GET', '/payments/api/list', { headers: { 'x-api-key': key } });
    expect(used.status, used.text).to.equal(200);
    expect(upstream.seen.at(-1)?.claims).to.include({ caller: 'api_key', apiKeyId: id });

    const after = await gw.db('api_keys').where({ id }).first();
    expect(after.pepper_fingerprint).to.equal(pepperFingerprint(NEW_PEPPER));
    expect(after.key_digest).not.to.equal(before.key_digest);
    // Found under the current pepper from now on; the old digest no longer exists.
    expect(await gw.db('api_keys').where({ key_digest: before.key_digest }).first()).to.equal(undefined);
    expect((await call(url, 'GET', '/payments/api/list', { headers: { 'x-api-key': key } })).status).to.equal(
      200,
    );
  });

  it('moves a key once when several requests present it at the same time', async () => {
    const account = await signUp(gw.url);
    const { id, key } = await createKey(gw.url, account);
    const url = await rotate();
    const statuses = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const res = await call(url, 'GET', '/payments/api/list', { headers: { 'x-api-key': key } });
        return res.status;
      }),
    );
    expect(statuses).to.deep.equal(Array(8).fill(200));
    expect((await gw.db('api_keys').where({ id }).first()).pepper_fingerprint).to.equal(
      pepperFingerprint(NEW_PEPPER),
    );
  });

  it('refuses a wrong key and a revoked one during the rotation', async () => {
    const account = await signUp(gw.url);
    const { id, key } = await createKey(gw.url, account);
    const url = await rotate();
    const wrong = `${key.slice(0, -4)}${key.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    const refused = await call(url, 'GET', '/payments/api/list', { headers: { 'x-api-key': wrong } });
    expect(refused.status).to.equal(401);
    expect(refused.body).to.include({ success: false });
    expect(
      (await call(gw.url, 'DELETE', `/api-keys/${id}`, { headers: bearer(account.accessToken) })).status,
    ).to.be.oneOf([200, 204]);
    expect((await call(url, 'GET', '/payments/api/list', { headers: { 'x-api-key': key } })).status).to.equal(
      401,
    );
  });

  it('keeps two-factor sign-in working: TOTP secrets are re-sealed and old recovery codes still count', async () => {
    const me = await signUp(gw.url);
    const auth = { headers: bearer(me.accessToken) };
    const setup = await call(gw.url, 'POST', '/auth/mfa/totp/setup', auth);
    const secret: string = setup.body.data.secret;
    const codeOf = (offset = 0) => totpCode(base32Decode(secret), stepAt(Date.now()) + offset);
    const enabled = await call(gw.url, 'POST', '/auth/mfa/totp/enable', {
      ...auth,
      body: { code: codeOf() },
    });
    expect(enabled.status, enabled.text).to.equal(200);
    const codes: string[] = enabled.body.data.recovery_codes;
    const sealedBefore: Buffer = (await gw.db('users').where({ id: me.userId }).first()).totp_secret;

    // A gateway started with the previous pepper re-seals the secret under the new one.
    await rotated?.stop();
    rotated = undefined;
    const url = await rotate();
    const sealedAfter: Buffer = (await gw.db('users').where({ id: me.userId }).first()).totp_secret;
    expect(sealedAfter.equals(sealedBefore)).to.equal(false);

    const step1 = async () =>
      (await call(url, 'POST', '/auth/login', { body: { email: me.email, password: STRONG_PASSWORD } })).body
        .data.mfa_token as string;
    const byTotp = await call(url, 'POST', '/auth/login/mfa', {
      body: { mfa_token: await step1(), code: codeOf(1) },
    });
    expect(byTotp.status, byTotp.text).to.equal(200);
    const byRecovery = await call(url, 'POST', '/auth/login/mfa', {
      body: { mfa_token: await step1(), code: codes[0] },
    });
    expect(byRecovery.status, byRecovery.text).to.equal(200);
  });
});
