import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { confirmationTokenFromMail } from '@stablepay/stack';
import {
  PASSWORD,
  PHONE,
  merchantWallet,
  seriousViolations,
  startDashboardStack,
  waitFor,
  type DashboardStack,
  type Tab,
} from './support/dashboard-stack.js';

/**
 * The dashboard in headless Chromium against the whole stack on the devnet: served with a strict
 * CSP, a merchant registers, signs out and in, sees the wallet balance and a devnet payment on the
 * home screen, and the access token is renewed silently; tokens never reach web storage.
 */
describe('dashboard: sign-in and home (Chromium, devnet)', function () {
  this.timeout(90_000);
  let s: DashboardStack;
  const email = `merchant-${Date.now()}@example.com`;
  const tabs: Tab[] = [];

  before(async () => {
    // A short access-token lifetime, so that the silent renewal happens within the test.
    // A lock-out after three failed sign-ins, so that the test reaches it quickly.
    s = await startDashboardStack({
      ACCESS_TOKEN_TTL_SECONDS: '30',
      SIGNIN_LOCKOUT_FAILURES: '3',
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    });
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

  const signIn = async (page: Page, password = PASSWORD) => {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  it('is served with a strict CSP, and the gateway lets only its origin call the dashboard routes', async () => {
    const res = await fetch(s.stack.dashboardUrl);
    expect(res.status).to.equal(200);
    const csp = res.headers.get('content-security-policy')!;
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "frame-ancestors 'none'",
      "form-action 'none'",
      "base-uri 'none'",
    ])
      expect(csp).to.contain(directive);
    expect(csp).to.contain(`connect-src 'self' ${new URL(s.stack.gatewayUrl).origin}`);
    expect(csp).not.to.match(/unsafe-inline|unsafe-eval/);
    const config = await (await fetch(new URL('config.json', s.stack.dashboardUrl))).json();
    expect(config).to.deep.equal({ gatewayUrl: s.stack.gatewayUrl });

    const origin = new URL(s.stack.dashboardUrl).origin;
    const preflight = (from: string, path: string) =>
      fetch(new URL(path, s.stack.gatewayUrl), {
        method: 'OPTIONS',
        headers: {
          origin: from,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
    const ours = await preflight(origin, '/wallets/balance');
    expect(ours.headers.get('access-control-allow-origin')).to.equal(origin);
    const theirs = await preflight('http://evil.test', '/wallets/balance');
    expect(theirs.headers.get('access-control-allow-origin')).to.equal(null);
    // An API-key route stays closed to every browser origin, the dashboard's included.
    const keyRoute = await preflight(origin, '/wallets/api/balance');
    expect(keyRoute.headers.get('access-control-allow-origin')).to.equal(null);
  });

  it('registers a merchant, confirms its address with the e-mailed link and shows its home: wallet balance and no payment yet', async () => {
    const { page } = await open();
    await page.getByRole('heading', { name: 'Sign in to your dashboard' }).waitFor();
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Business name').fill('Corner Shop');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Network for your wallet').selectOption('BASE');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await page.getByText(`We sent a link to ${email}.`).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('heading', { name: 'Confirm your e-mail address' }).waitFor();
    // The link from the e-mail, opened in the signed-in tab: the banner goes once it is followed.
    const token = await waitFor(
      async () => confirmationTokenFromMail(s.gw.mailDir, email),
      'confirmation e-mail',
    );
    await page.evaluate((hash) => void (window.location.hash = hash), `#/confirm-email?token=${token}`);
    await page.getByText(`Your e-mail address ${email} is confirmed.`).waitFor();
    // The account is read again after the confirmation: the banner goes then.
    await page.locator('.unconfirmed-banner').waitFor({ state: 'detached', timeout: 5_000 });
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByText(`Signed in as ${email}`).waitFor();
    await page.getByText('No payments yet.').waitFor();
    // The wallet is assigned asynchronously after registration; the balance shows once it is.
    await waitFor(async () => {
      if ((await page.locator('[data-balance="USDC"]').count()) > 0) return true;
      await page
        .getByRole('button', { name: 'Try again' })
        .click({ timeout: 1_000 })
        .catch(() => {});
      return undefined;
    }, 'balance shown');
    expect(await page.locator('[data-balance="USDC"]').innerText()).to.match(/^0\.00\s+USDC$/);
    expect(await seriousViolations(page)).to.deep.equal([]);
    // Tokens live in memory only: nothing in web storage or cookies.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.to.match(/eyJ|refresh/i);
    expect(await page.context().cookies()).to.deep.equal([]);
  });

  it('refuses a wrong password, signs in, shows a devnet payment on the home screen and signs out', async () => {
    const me = (await s.gw.call('GET', '/auth/me', { headers: await s.signInApi(email) })).body.data;
    const wallet = await merchantWallet(s.gw, me.merchant.id);
    const paid = await s.pay({ merchantId: me.merchant.id, to: wallet.address, amount: '42.5' });
    await waitFor(async () => {
      const r = await s.gw.call('GET', `/payments/${paid.paymentId}`, { headers: await s.signInApi(email) });
      return r.body.data?.status === 'completed' || undefined;
    }, 'payment completed');

    const { page } = await open();
    await signIn(page, 'not the password at all');
    await page.getByRole('alert').filter({ hasText: 'The e-mail or password is wrong.' }).waitFor();
    await signIn(page);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const row = page.locator(`[data-payment-id="${paid.paymentId}"]`);
    await row.waitFor();
    expect(await row.innerText())
      .to.contain('42.50 USDC')
      .and.contain('payer@example.com');
    expect(await row.locator('[data-status]').getAttribute('data-status')).to.equal('completed');
    expect(await page.locator('[data-balance="USDC"]').innerText()).to.match(/^42\.50\s+USDC$/);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'home-desktop');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to your dashboard' }).waitFor();
    // The signed-out session's refresh token no longer works anywhere.
    expect(await page.locator(`[data-payment-id]`).count()).to.equal(0);
  });

  it('renews the access token silently, rotating the refresh token', async () => {
    const { page } = await open();
    const refreshes: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/auth/refresh')) refreshes.push(r.status());
    });
    // The page's clock is driven by the test, so the renewal timers fire without waiting for them.
    await page.clock.install();
    await page.reload();
    await signIn(page);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // Access tokens last 30 s here; the page renews at half-life: twice in 32 s of its time, the
    // second time with the refresh token the first renewal handed back.
    await page.clock.fastForward(16_000);
    await waitFor(() => (refreshes.length >= 1 ? true : undefined), 'first renewal', 10_000);
    await page.clock.fastForward(16_000);
    await waitFor(() => (refreshes.length >= 2 ? true : undefined), 'second renewal', 10_000);
    expect(refreshes.slice(0, 2)).to.deep.equal([200, 200]);
    // Still signed in, with a working token: the home screen loads again.
    await page.evaluate(() => (window.location.hash = '#/nowhere'));
    await page.getByText('There is no such page.').waitFor();
    await page.getByRole('link', { name: 'Home' }).click();
    await page.locator('[data-balance="USDC"]').waitFor();
  });

  it('works on a phone-sized screen and in German', async () => {
    const { page } = await open({ viewport: PHONE, locale: 'de-DE' });
    await page.getByRole('heading', { name: 'Im Dashboard anmelden' }).waitFor();
    await s.shot(page, 'sign-in-phone-de');
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('heading', { name: 'Übersicht' }).waitFor();
    await page.locator('[data-payment-id]').first().waitFor();
    expect(await page.locator('[data-balance="USDC"]').innerText()).to.match(/^42,50\s+USDC$/);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'home-phone-de');
    // The language can be switched back; the choice is a preference kept in localStorage.
    await page.getByLabel('Sprache').selectOption('en');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await s.shot(page, 'home-phone');
  });

  it('says an account is locked after repeated failed sign-ins, and refuses even the right password', async () => {
    const { page } = await open();
    for (let i = 0; i < 3; i++) {
      await signIn(page, `wrong password ${i}`);
      await page.getByRole('alert').filter({ hasText: 'The e-mail or password is wrong.' }).waitFor();
    }
    await signIn(page);
    await page
      .getByRole('alert')
      .filter({ hasText: /it is locked for 1[45] min\. Until then even the right password is refused\./ })
      .waitFor();
    expect(await page.getByRole('heading', { name: 'Overview' }).count()).to.equal(0);
  });
});
