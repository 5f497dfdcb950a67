import { expect } from 'chai';
import {
  STRONG_PASSWORD,
  call,
  closedPortUrl,
  startTestGateway,
  uniqueEmail,
  type TestGateway,
} from './harness.js';

/**
 * A merchant's name is shown to customers as it was typed: characters that silently reorder the text
 * around them are refused wherever a name is set (today: registration, the only place a name is
 * written). A gateway of its own, since the sign-up limit counts these attempts too.
 */
describe('gateway: merchant names', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startTestGateway(await closedPortUrl());
  });
  after(async () => {
    await gw?.close();
  });

  const register = (email: string, merchantName: string) =>
    call(gw.url, 'POST', '/auth/register', {
      body: { email, password: STRONG_PASSWORD, merchantName, blockchain: 'BASE' },
    });

  it('refuses bidirectional overrides, isolates and marks with 400 naming the field', async () => {
    for (const control of ['\u202A', '\u202E', '\u2066', '\u2069', '\u200E', '\u200F', '\u061C']) {
      const email = uniqueEmail();
      const res = await register(email, `Acme ${control}gnp.exe`);
      const code = `U+${control.codePointAt(0)!.toString(16).toUpperCase()}`;
      expect(res.status, code).to.equal(400);
      expect(res.body.success, code).to.equal(false);
      expect(
        res.body.details.map((d: { path: string }) => d.path),
        code,
      ).to.deep.equal(['merchantName']);
      expect(await gw.db('users').where({ email }).first(), code).to.equal(undefined);
    }
  });

  it('keeps a name in a right-to-left script, and a long unbroken one, as typed', async () => {
    for (const name of ['متجر Acme', 'A'.repeat(40)]) {
      const email = uniqueEmail();
      expect((await register(email, name)).status).to.equal(201);
      const user = await gw.db('users').where({ email }).first();
      expect((await gw.db('merchants').where({ id: user.merchant_id }).first()).name).to.equal(name);
    }
  });
});
