import { expect } from 'chai';
import {
  STRONG_PASSWORD,
  call,
  signUp,
  startEchoUpstream,
  startReplica,
  startTestGateway,
  type Account,
  type EchoUpstream,
  type Replica,
  type TestGateway,
} from './harness.js';

/** The client addresses the audit log recorded for failed sign-ins naming `email`. */
const failedSignInAddresses = async (gw: TestGateway, email: string): Promise<string[]> => {
  const rows = await gw
    .db('audit_log')
    .where({ action: 'auth.login_failed' })
    .whereRaw("details->>'email' = ?", [email])
    .orderBy('id')
    .select<{ ip: string }[]>('ip');
  return rows.map((r) => r.ip);
};

describe('gateway: client addresses come only from trusted proxies', function () {
  this.timeout(60_000);
  let upstream: EchoUpstream;
  let gw: TestGateway;
  let behindProxy: Replica;
  let account: Account;

  before(async () => {
    upstream = await startEchoUpstream();
    // The default: no proxy trusted. The account lock-out is set out of reach, so the per-address
    // limit alone is what answers.
    gw = await startTestGateway(upstream.url, { SIGNIN_LOCKOUT_FAILURES: '1000' });
    // The same gateway deployed behind a proxy of ours on loopback.
    behindProxy = await startReplica(gw, upstream.url, {
      SIGNIN_LOCKOUT_FAILURES: '1000',
      TRUSTED_PROXIES: '127.0.0.1,::1',
    });
    account = await signUp(gw.url);
  });
  after(async () => {
    await behindProxy?.stop();
    await gw?.close();
    await upstream?.close();
  });

  it('ignores a forged X-Forwarded-For: 25 wrong passwords from one client are throttled', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await call(gw.url, 'POST', '/auth/login', {
        body: { email: account.email, password: `wrong-password-${i}` },
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
      });
      statuses.push(res.status);
    }
    // signUp used two of the 20 credential requests a minute this address has.
    expect(statuses.slice(0, 18)).to.deep.equal(Array(18).fill(401));
    expect(statuses.slice(18)).to.deep.equal(Array(7).fill(429));
    const right = await call(gw.url, 'POST', '/auth/login', {
      body: { email: account.email, password: STRONG_PASSWORD },
      headers: { 'x-forwarded-for': '198.51.100.200' },
    });
    expect(right.status).to.equal(429);
    expect(Number(right.headers.get('retry-after'))).to.be.within(1, 60);

    // The audit log holds the real peer of each attempt that got as far as the password.
    const addresses = await failedSignInAddresses(gw, account.email);
    expect(addresses).to.have.length(18);
    expect(new Set(addresses)).to.deep.equal(new Set(['127.0.0.1']));
  });

  it('throttles public lookups by the real peer too', async () => {
    const limited = await startReplica(gw, upstream.url, { RATE_LIMIT_PUBLIC_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push(
          (await call(limited.url, 'GET', '/chains', { headers: { 'x-forwarded-for': `192.0.2.${i}` } }))
            .status,
        );
      expect(statuses).to.deep.equal([200, 200, 200, 429, 429]);
    } finally {
      await limited.stop();
    }
  });

  it('honours X-Forwarded-For from a configured proxy: each client is counted and audited as itself', async () => {
    const email = `proxied-${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await call(behindProxy.url, 'POST', '/auth/login', {
        body: { email, password: `wrong-password-${i}` },
        // A client's own header, then the address our proxy saw: only the proxy's word counts.
        headers: { 'x-forwarded-for': `10.9.9.9, 203.0.113.${i + 1}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).to.deep.equal(Array(25).fill(401));
    const addresses = await failedSignInAddresses(gw, email);
    expect(addresses).to.deep.equal(Array.from({ length: 25 }, (_, i) => `203.0.113.${i + 1}`));
  });
});
