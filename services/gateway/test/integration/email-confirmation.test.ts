import { expect } from 'chai';
import {
  STRONG_PASSWORD,
  accountEmails,
  bearer,
  call,
  closedPortUrl,
  confirmationToken,
  signUp,
  startTestGateway,
  uniqueEmail,
  type TestGateway,
} from './harness.js';

const DASHBOARD = 'https://dashboard.shop.example';

describe('gateway: registration that reveals nothing, and e-mail confirmation', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startTestGateway(await closedPortUrl(), {
      DASHBOARD_URL: `${DASHBOARD}/`,
      EMAIL_CONFIRMATION_RESEND_SECONDS: '0',
      // Every request of the suite comes from one address: the per-address limit is not under test here.
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    });
  });
  after(async () => {
    await gw?.close();
  });

  const register = (email: string, merchantName = 'Shop', password = STRONG_PASSWORD) =>
    call(gw.url, 'POST', '/auth/register', { body: { email, password, merchantName, blockchain: 'BASE' } });
  const confirm = (token: string) => call(gw.url, 'POST', '/auth/email-confirmation', { body: { token } });
  const resend = (email: string) =>
    call(gw.url, 'POST', '/auth/email-confirmation/resend', { body: { email } });
  const user = (email: string) => gw.db('users').where({ email }).first();

  it('e-mails a new account a single-use link to the dashboard, keeping only its hash', async () => {
    const email = uniqueEmail();
    expect((await register(email)).status).to.equal(201);
    const [sent, ...others] = await accountEmails(gw.db, email);
    expect(others).to.have.length(0);
    expect(sent).to.include({ kind: 'email_confirmation', merchantId: (await user(email)).merchant_id });
    expect(sent!.link).to.match(
      /^https:\/\/dashboard\.shop\.example\/#\/confirm-email\?token=[0-9a-f-]{36}\./,
    );
    const expiresIn = new Date(sent!.expiresAt!).getTime() - Date.now();
    expect(expiresIn).to.be.within(86_000_000, 86_400_000);

    const token = await confirmationToken(gw.db, email);
    const [id, secret] = token.split('.') as [string, string];
    // The link travels sealed: neither the outbox nor the broker holds its secret in the clear.
    expect(sent!.sealedLink).to.be.a('string').and.not.include(secret);
    const outboxRow = await gw
      .db('outbox')
      .where({ type: 'account.email_requested' })
      .whereRaw(`envelope->'data'->>'email' = ?`, [email]);
    expect(JSON.stringify(outboxRow)).not.to.include(secret);
    const row = await gw.db('email_confirmations').where({ id }).first();
    expect(row.secret_digest).to.match(/^[0-9a-f]{64}$/);
    expect(row.secret_digest).not.to.include(secret);
  });

  it('answers a registration of a confirmed address exactly as a new one, and e-mails its owner instead', async () => {
    const account = await signUp(gw.url, 'First Shop');
    await gw.db('users').where({ email: account.email }).update({ email_confirmed_at: new Date() });
    const fresh = await register(uniqueEmail());
    const again = await register(account.email.toUpperCase(), 'Impostor', 'another password entirely');
    expect(again.status).to.equal(fresh.status);
    expect(Object.keys(again.headers).sort()).to.deep.equal(Object.keys(fresh.headers).sort());
    expect({ ...again.body, data: { ...again.body.data, email: 'x' } }).to.deep.equal({
      ...fresh.body,
      data: { ...fresh.body.data, email: 'x' },
    });
    expect(again.body.data.email).to.equal(account.email);

    // Nothing was created or changed; the owner is told, once an hour at most.
    expect(await gw.db('users').where({ email: account.email })).to.have.length(1);
    expect(await gw.db('merchants').where({ name: 'Impostor' })).to.have.length(0);
    const notices = (await accountEmails(gw.db, account.email)).filter(
      (e) => e.kind === 'registration_attempted',
    );
    expect(notices).to.have.length(1);
    expect(notices[0]!.link).to.equal(`${DASHBOARD}/#/`);
    await register(account.email);
    expect(
      (await accountEmails(gw.db, account.email)).filter((e) => e.kind === 'registration_attempted'),
    ).to.have.length(1);
    const audit = await call(gw.url, 'GET', '/audit-log?action=auth.registration_attempted', {
      headers: bearer(account.accessToken),
    });
    expect(audit.body.data.total).to.equal(2);
  });

  it('sends a new link, not a notice, when the address registered again is still unconfirmed', async () => {
    const email = uniqueEmail();
    await register(email);
    const again = await register(email, 'Second Try');
    expect(again.status).to.equal(201);
    const sent = await accountEmails(gw.db, email);
    expect(sent.map((e) => e.kind)).to.deep.equal(['email_confirmation', 'email_confirmation']);
  });

  it('confirms the address once: the account says so, merchant.email_confirmed is announced, the link is spent', async () => {
    const account = await signUp(gw.url);
    const token = await confirmationToken(gw.db, account.email);
    const done = await confirm(token);
    expect(done.status, done.text).to.equal(200);
    expect(done.body).to.deep.equal({ success: true, data: { email: account.email, email_confirmed: true } });
    const me = await call(gw.url, 'GET', '/auth/me', { headers: bearer(account.accessToken) });
    expect(me.body.data.user.email_confirmed).to.equal(true);
    const merchantId = (await user(account.email)).merchant_id;
    const announced = await gw
      .db('outbox')
      .where({ type: 'merchant.email_confirmed' })
      .whereRaw(`envelope->'data'->>'merchantId' = ?`, [merchantId]);
    expect(announced).to.have.length(1);
    expect(announced[0].envelope.data).to.deep.equal({ merchantId, email: account.email });

    const reused = await confirm(token);
    expect(reused.status).to.equal(422);
    expect(reused.body.success).to.equal(false);
    expect(reused.body.details[0]).to.include({ path: 'token', code: 'confirmation_invalid' });
  });

  it('spends a link once when it is followed twice at once, and announces the confirmation once', async () => {
    const account = await signUp(gw.url);
    const token = await confirmationToken(gw.db, account.email);
    const answers = await Promise.all([confirm(token), confirm(token), confirm(token)]);
    expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 422, 422]);
    const merchantId = (await user(account.email)).merchant_id;
    const announced = await gw
      .db('outbox')
      .where({ type: 'merchant.email_confirmed' })
      .whereRaw(`envelope->'data'->>'merchantId' = ?`, [merchantId]);
    expect(announced).to.have.length(1);
  });

  it('refuses forged, tampered and expired links in the envelope, never with a 500', async () => {
    const account = await signUp(gw.url);
    const token = await confirmationToken(gw.db, account.email);
    const [id, secret] = token.split('.') as [string, string];
    const flipped = `${id}.${secret[0] === 'A' ? 'B' : 'A'}${secret.slice(1)}`;
    for (const bad of [flipped, 'nonsense', `${id}.`, `${id}.${secret}.x`, 'x'.repeat(256)]) {
      const res = await confirm(bad);
      expect(res.status, bad).to.equal(422);
      expect(res.body.details[0]).to.include({ code: 'confirmation_invalid' });
    }
    const missing = await call(gw.url, 'POST', '/auth/email-confirmation', { body: {} });
    expect(missing.status).to.equal(400);
    expect(missing.body.details[0]).to.include({ path: 'token' });

    await gw
      .db('email_confirmations')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await confirm(token);
    expect(expired.status).to.equal(422);
    expect(expired.body.details[0]).to.include({ code: 'confirmation_expired' });
    expect((await user(account.email)).email_confirmed_at).to.equal(null);
  });

  it('resends to an unconfirmed account only, five links an hour at most, answering every address alike', async () => {
    const account = await signUp(gw.url);
    const unknown = await resend(uniqueEmail());
    expect(unknown.status).to.equal(202);
    for (let i = 0; i < 6; i++) {
      const res = await resend(account.email);
      expect(res.status).to.equal(202);
      expect(res.body).to.deep.equal(unknown.body);
    }
    // The registration's link and four resent ones: five in the hour.
    expect(await accountEmails(gw.db, account.email)).to.have.length(5);
    const newest = await confirmationToken(gw.db, account.email);
    expect((await confirm(newest)).status).to.equal(200);
    // Confirmed: nothing more is sent.
    await gw.db('users').where({ email: account.email }).update({ confirmation_window_at: null });
    expect((await resend(account.email)).status).to.equal(202);
    expect(await accountEmails(gw.db, account.email)).to.have.length(5);
  });

  it('counts the confirmation routes against the per-address limit of sign-in', async () => {
    const tight = await startTestGateway(await closedPortUrl(), { RATE_LIMIT_AUTH_PER_MINUTE: '2' });
    try {
      const email = uniqueEmail();
      const statuses: number[] = [];
      for (const path of [
        '/auth/email-confirmation/resend',
        '/auth/email-confirmation',
        '/auth/email-confirmation/resend',
      ])
        statuses.push(
          (
            await call(tight.url, 'POST', path, {
              body: path.endsWith('resend') ? { email } : { token: 'x' },
            })
          ).status,
        );
      expect(statuses).to.deep.equal([202, 422, 429]);
    } finally {
      await tight.close();
    }
  });

  it('waits the configured interval between two links', async () => {
    const slow = await startTestGateway(await closedPortUrl(), { EMAIL_CONFIRMATION_RESEND_SECONDS: '60' });
    try {
      const email = uniqueEmail();
      await call(slow.url, 'POST', '/auth/register', {
        body: { email, password: STRONG_PASSWORD, merchantName: 'Shop', blockchain: 'BASE' },
      });
      await call(slow.url, 'POST', '/auth/email-confirmation/resend', { body: { email } });
      expect(await accountEmails(slow.db, email)).to.have.length(1);
      await slow
        .db('users')
        .where({ email })
        .update({ confirmation_sent_at: new Date(Date.now() - 61_000) });
      await call(slow.url, 'POST', '/auth/email-confirmation/resend', { body: { email } });
      expect(await accountEmails(slow.db, email)).to.have.length(2);
    } finally {
      await slow.close();
    }
  });
});
