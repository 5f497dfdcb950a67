import { expect } from 'chai';
import {
  STRONG_PASSWORD,
  call,
  closedPortUrl,
  signUp,
  startTestGateway,
  uniqueEmail,
  type Account,
  type TestGateway,
} from './harness.js';

interface FailureRow {
  user_id: string | null;
  merchant_id: string | null;
  ip: string;
  details: { email: string; reason: string };
}

describe('gateway: sign-in lock-out per account', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let account: Account;
  let other: Account;

  before(async () => {
    // Behind a proxy on loopback, so that each attempt can come from an address of its own.
    gw = await startTestGateway(await closedPortUrl(), {
      SIGNIN_LOCKOUT_FAILURES: '3',
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
      TRUSTED_PROXIES: 'loopback',
    });
    account = await signUp(gw.url);
    other = await signUp(gw.url);
  });
  after(() => gw?.close());

  let address = 0;
  const login = (email: string, password: string) =>
    call(gw.url, 'POST', '/auth/login', {
      body: { email, password },
      headers: { 'x-forwarded-for': `203.0.113.${++address}` },
    });

  const failures = (email: string): Promise<FailureRow[]> =>
    gw
      .db('audit_log')
      .where({ action: 'auth.login_failed' })
      .whereRaw("details->>'email' = ?", [email])
      .orderBy('id')
      .select('user_id', 'merchant_id', 'ip', 'details');

  it('locks an account after its failures from any addresses, refusing even the right password', async () => {
    for (let i = 0; i < 3; i++) expect((await login(account.email, `wrong-${i}`)).status).to.equal(401);

    const locked = await login(account.email, STRONG_PASSWORD);
    expect(locked.status).to.equal(429);
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).to.be.within(840, 900);
    expect(locked.body.success).to.equal(false);
    expect(locked.body.error).to.equal(
      'Too many failed sign-ins for this account: it is locked for 15 minutes, and until then every ' +
        'sign-in is refused, even with the correct password',
    );
    expect(locked.body.details).to.deep.equal([
      { path: 'email', message: locked.body.error, code: 'account_locked' },
    ]);

    // Another account, from the same proxy, is not touched.
    expect((await login(other.email, STRONG_PASSWORD)).status).to.equal(200);

    const rows = await failures(account.email);
    expect(rows.map((r) => r.details.reason)).to.deep.equal([
      'wrong_password',
      'wrong_password',
      'wrong_password',
      'account_locked',
    ]);
    expect(rows.every((r) => r.user_id === account.userId && r.merchant_id !== null)).to.equal(true);
    expect(rows.map((r) => r.ip)).to.deep.equal(['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4']);
  });

  it('treats an e-mail without an account the same way, so a lock-out reveals nothing', async () => {
    const email = uniqueEmail();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await login(email, `guess-${i}`)).status);
    expect(statuses).to.deep.equal([401, 401, 401, 429]);
    const rows = await failures(email);
    expect(rows.map((r) => r.details.reason)).to.deep.equal([
      'unknown_account',
      'unknown_account',
      'unknown_account',
      'account_locked',
    ]);
    expect(rows.every((r) => r.user_id === null && r.merchant_id === null)).to.equal(true);
  });

  it('counts the e-mail whatever its case, and forgets mistakes after a successful sign-in', async () => {
    const fresh = await signUp(gw.url);
    expect((await login(fresh.email.toUpperCase(), 'wrong-a')).status).to.equal(401);
    expect((await login(fresh.email, 'wrong-b')).status).to.equal(401);
    expect((await login(fresh.email, STRONG_PASSWORD)).status).to.equal(200);
    // Two more mistakes after the success stay under the limit of three.
    expect((await login(fresh.email, 'wrong-c')).status).to.equal(401);
    expect((await login(fresh.email, 'wrong-d')).status).to.equal(401);
    expect((await login(fresh.email, STRONG_PASSWORD)).status).to.equal(200);
  });
});

describe('gateway: a failed sign-in costs the same whether the e-mail has an account', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let account: Account;

  before(async () => {
    // A cost at which the password hash, not the database, is most of a sign-in's time.
    gw = await startTestGateway(await closedPortUrl(), {
      SCRYPT_COST: '14',
      SIGNIN_LOCKOUT_FAILURES: '100',
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    });
    account = await signUp(gw.url);
  });
  after(() => gw?.close());

  const timed = async (email: string): Promise<number> => {
    const started = performance.now();
    const res = await call(gw.url, 'POST', '/auth/login', { body: { email, password: 'not-the-password' } });
    expect(res.status).to.equal(401);
    return performance.now() - started;
  };
  // The fastest of several is the least disturbed by other work on the machine.
  const fastest = (values: number[]) => Math.min(...values);

  it('spends one password hash on an unknown e-mail too', async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, so that the machine's load weighs on both alike.
    for (let i = 0; i < 7; i++) {
      known.push(await timed(account.email));
      unknown.push(await timed(uniqueEmail()));
    }
    // Without a hash an unknown e-mail would answer in about 1 % of a known one's time.
    const ratio = fastest(unknown) / fastest(known);
    expect(ratio, `unknown ${fastest(unknown)} ms, known ${fastest(known)} ms`).to.be.within(0.5, 2);
  });
});
