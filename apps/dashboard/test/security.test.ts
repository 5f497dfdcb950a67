import { expect } from 'chai';
import type { Page } from 'playwright-core';
import {
  PASSWORD,
  PHONE,
  registerMerchant,
  seriousViolations,
  signIn,
  startDashboardStack,
  type DashboardStack,
  type Tab,
} from './support/dashboard-stack.js';
import { authenticatorCode } from './support/totp.js';

const NEW_PASSWORD = 'another long passphrase 42';

/**
 * Account security in the dashboard against the whole stack: two-factor sign-in enrolled with a
 * QR code and required at sign-in (a wrong code, a recovery code, an authenticator code), the
 * password changed with the session carrying on, and the audit log of all of it.
 */
describe('dashboard: two-factor sign-in, password and audit log (Chromium)', function () {
  this.timeout(90_000);
  let s: DashboardStack;
  const email = `security-${Date.now()}@example.com`;
  const tabs: Tab[] = [];
  let secret: string;
  let recovery: string[];

  before(async () => {
    s = await startDashboardStack();
    await registerMerchant(s.gw, email);
  });
  after(async () => s?.close());
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await s.closeTab(tab);
  });

  const open = async (opts?: Parameters<DashboardStack['open']>[0]) => {
    const tab = await s.open(opts);
    tabs.push(tab);
    return tab;
  };
  const toSecurity = (page: Page, name = 'Security') =>
    page
      .getByRole('navigation', { name: /Main|Haupt/ })
      .getByRole('link', { name })
      .click();
  const passwordStep = async (page: Page, password = PASSWORD) => {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
  };
  const signOut = (page: Page) => page.getByRole('button', { name: 'Sign out' }).click();

  it('enrols an authenticator and then asks for a code at every sign-in', async () => {
    const { page, context } = await open();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(s.stack.dashboardUrl).origin,
    });
    await signIn(page, email);
    await toSecurity(page);
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const qr = page.getByRole('img', { name: 'QR code to add this account to an authenticator app' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).to.match(/^data:image\/svg\+xml;base64,/);
    secret = (await page.locator('[data-totp-secret]').innerText()).trim();
    expect(secret).to.match(/^[A-Z2-7]{32}$/);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'security-enrol-desktop');

    await page.getByLabel('6-digit code').fill(authenticatorCode(secret, 5));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('alert').filter({ hasText: 'The code is not valid' }).waitFor();
    await page.getByLabel('6-digit code').fill(authenticatorCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.locator('[data-recovery-codes] code');
    await codes.first().waitFor();
    recovery = await codes.allInnerTexts();
    expect(recovery).to.have.length(10);
    await page.getByRole('button', { name: 'Copy Recovery codes' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(recovery.join('\n'));
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'security-recovery-codes-desktop');
    await page.getByRole('button', { name: 'I have stored them' }).click();
    await page.getByText('10 recovery codes left.').waitFor();

    // The password alone no longer signs in: a wrong code, then a recovery code.
    await signOut(page);
    await passwordStep(page);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'sign-in-second-step-desktop');
    await page.getByLabel('Code from your authenticator app').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('The code is not valid. 4 attempts left.').waitFor();
    await page.getByLabel('Code from your authenticator app').fill(recovery[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    // Signed in, back on the screen the session ended on.
    await page.getByRole('heading', { name: 'Security', exact: true }).waitFor();

    // And with the app's code (the next step's: the enrolment spent the current one).
    await signOut(page);
    await passwordStep(page);
    await page.getByLabel('Code from your authenticator app').fill(authenticatorCode(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Security', exact: true }).waitFor();
    await page.getByText('9 recovery codes left.').waitFor();
    const audit = page.locator('[data-audit-action]');
    await audit.first().waitFor();
    const actions = await audit.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-audit-action')));
    expect(actions.slice(0, 6)).to.deep.equal([
      'auth.login_succeeded',
      'auth.logout',
      'auth.login_succeeded',
      'auth.recovery_code_used',
      'auth.mfa_failed',
      'auth.logout',
    ]);
    expect(actions).to.include('auth.totp_enabled');
    await page.getByLabel('Action').selectOption('auth.mfa_failed');
    await page.locator('table[data-total="1"]').waitFor();
    // In a sentence, naming who acted.
    expect(await page.locator('[data-audit-action]').innerText()).to.contain(
      `${email} entered a wrong two-factor code.`,
    );
  });

  it('changes the password and carries on with the session, on a phone and in German', async () => {
    const { page } = await open({ viewport: PHONE, locale: 'de-DE' });
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByLabel('Code aus Ihrer Authenticator-App').fill(recovery[1]!);
    await page.getByRole('button', { name: 'Bestätigen' }).click();
    await toSecurity(page, 'Sicherheit');
    await page.getByRole('heading', { name: 'Passwort ändern' }).waitFor();

    await page.getByLabel('Aktuelles Passwort').fill('not my password at all');
    await page.getByLabel('Neues Passwort', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Neues Passwort wiederholen').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Passwort ändern' }).click();
    await page.getByRole('alert').filter({ hasText: 'current password is wrong' }).waitFor();
    await page.getByLabel('Aktuelles Passwort').fill(PASSWORD);
    await page.getByLabel('Neues Passwort wiederholen').fill(`${NEW_PASSWORD}!`);
    await page.getByRole('button', { name: 'Passwort ändern' }).click();
    await page.getByText('Die beiden neuen Passwörter unterscheiden sich.').waitFor();
    await page.getByLabel('Neues Passwort wiederholen').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Passwort ändern' }).click();
    // The form's own confirmation (the audit log below may already say it too).
    await page.getByRole('status').filter({ hasText: 'Passwort geändert.' }).waitFor();
    // The audit log shows it at once.
    await page
      .locator('[data-audit-action]')
      .first()
      .filter({ hasText: 'hat das Passwort geändert.' })
      .waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'security-phone-de');

    // The session goes on with the tokens handed back; the old password is refused.
    await page.getByRole('link', { name: 'Zahlungen', exact: true }).click();
    await page.getByRole('heading', { name: 'Zahlungen' }).waitFor();
    const old = await s.gw.call('POST', '/auth/login', { body: { email, password: PASSWORD } });
    expect(old.status).to.equal(401);
    const fresh = await s.gw.call('POST', '/auth/login', { body: { email, password: NEW_PASSWORD } });
    expect(fresh.body.data).to.include({ mfa_required: true });

    // Two-factor sign-in off, with the password and a recovery code.
    await toSecurity(page, 'Sicherheit');
    await page.getByLabel('Passwort', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Code aus Ihrer Authenticator-App').fill(recovery[2]!);
    await page.getByRole('button', { name: 'Zwei-Faktor-Anmeldung ausschalten' }).click();
    await page.locator('[data-mfa-state="off"]').waitFor();
    const plain = await s.gw.call('POST', '/auth/login', { body: { email, password: NEW_PASSWORD } });
    expect(plain.body.data).to.have.property('access_token');
  });
});
