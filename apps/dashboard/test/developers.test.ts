import { expect } from 'chai';
import {
  PHONE,
  registerMerchant,
  seriousViolations,
  signIn,
  startDashboardStack,
  type DashboardStack,
  type Tab,
} from './support/dashboard-stack.js';

/**
 * API keys in the dashboard against the whole stack: a key is created and shown once with a copy
 * button, works against the API, is listed masked, and is revoked after a confirmation, with
 * immediate effect.
 */
describe('dashboard: API keys (Chromium)', function () {
  this.timeout(90_000);
  let s: DashboardStack;
  const email = `developers-${Date.now()}@example.com`;
  const tabs: Tab[] = [];

  before(async () => {
    s = await startDashboardStack();
    await registerMerchant(s.gw, email);
  });
  after(async () => s?.close());
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await s.closeTab(tab);
  });

  it('creates a key shown once, lists it masked and revokes it after confirming', async () => {
    const tab = await s.open();
    tabs.push(tab);
    const { page, context } = tab;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(s.stack.dashboardUrl).origin,
    });
    await signIn(page, email);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Developers' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByLabel('Name of a new key').fill('Checkout server');
    // The standard choice is preselected and says what it leaves out.
    expect(
      await page
        .getByRole('radio', { name: 'Standard: everything except requesting withdrawals' })
        .isChecked(),
    ).to.equal(true);
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.locator('[data-new-key]');
    await shown.waitFor();
    const key = (await shown.innerText()).trim();
    expect(key).to.match(/^sk_live_/);
    await page.getByRole('button', { name: 'Copy API key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(key);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'developers-new-key-desktop');

    // The key works for a server.
    const list = await s.gw.call('GET', '/payments/api/list', { headers: { 'x-api-key': key } });
    expect(list.status).to.equal(200);

    // Once dismissed, the full key is gone from the page; the listing shows its last four characters.
    await page.getByRole('button', { name: 'I have stored it' }).click();
    const row = page.locator('[data-key-id]').filter({ hasText: 'Checkout server' });
    await row.waitFor();
    expect(await row.innerText()).to.contain(`••••${key.slice(-4)}`);
    expect(await row.locator('.scope-tag').innerText()).to.equal('Standard');
    // Standard keys cannot request withdrawals.
    const withdrawal = await s.gw.call('POST', '/withdrawals/api/create', {
      headers: { 'x-api-key': key },
      body: { currency: 'USDC', destination_address: `0x${'ab'.repeat(20)}` },
    });
    expect(withdrawal.status).to.equal(403);
    expect(withdrawal.body.details[0].code).to.equal('insufficient_scope');
    expect(await page.content()).not.to.contain(key);

    await row.getByRole('button', { name: 'Revoke key Checkout server' }).click();
    await page.getByText('Revoke “Checkout server”? Requests with it fail at once.').waitFor();
    await s.shot(page, 'developers-revoke-desktop');
    await page
      .getByRole('group', { name: 'Confirm revoking Checkout server' })
      .getByRole('button', { name: 'Revoke key' })
      .click();
    await row.waitFor({ state: 'detached' });
    const refused = await s.gw.call('GET', '/payments/api/list', { headers: { 'x-api-key': key } });
    expect(refused.status).to.equal(401);
  });

  it('creates a restricted key with only the scopes ticked, warning before it may request withdrawals', async () => {
    const tab = await s.open();
    tabs.push(tab);
    const { page } = tab;
    await signIn(page, email);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Developers' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByLabel('Name of a new key').fill('Payout server');
    await page.getByRole('radio', { name: 'Restricted: only what you tick' }).check();
    const scopes = page.getByRole('group', { name: 'Scopes of the key' });
    await scopes.waitFor();
    expect(await scopes.getByRole('checkbox').count()).to.equal(14);
    // Nothing is ticked for the merchant: creating now asks for a choice and makes no key.
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Tick at least one scope, or choose Standard.').waitFor();

    const warning = page.getByText('This key can send your funds to any address it names.', { exact: false });
    expect(await warning.count()).to.equal(0);
    await scopes.getByRole('checkbox', { name: /Request withdrawals/ }).check();
    await scopes.getByRole('checkbox', { name: /See withdrawals/ }).check();
    await warning.waitFor();
    // The request for a choice goes once a choice is made.
    expect(await page.getByText('Tick at least one scope, or choose Standard.').count()).to.equal(0);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'developers-restricted-desktop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('[data-new-key]').innerText()).trim();
    await page.getByRole('button', { name: 'I have stored it' }).click();

    const row = page.locator('[data-key-id]').filter({ hasText: 'Payout server' });
    await row.waitFor();
    expect(await row.locator('.scope-tag').allInnerTexts()).to.deep.equal([
      'withdrawals:read',
      'withdrawals:write',
    ]);
    await s.shot(page, 'developers-scopes-listed-desktop');
    const listed = await s.gw.call('GET', '/withdrawals/api/list', { headers: { 'x-api-key': key } });
    expect(listed.status).to.equal(200);
    const payments = await s.gw.call('GET', '/payments/api/list', { headers: { 'x-api-key': key } });
    expect(payments.status).to.equal(403);
    expect(payments.body.details[0].message).to.contain('payments:read');
  });

  it('works on a phone-sized screen and in German', async () => {
    const tab = await s.open({ viewport: PHONE, locale: 'de-DE' });
    tabs.push(tab);
    const { page } = tab;
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('link', { name: 'Entwickler' }).click();
    await page.getByRole('heading', { name: 'API-Schlüssel' }).waitFor();
    // The key made at registration by the test set-up is listed.
    await page.locator('[data-key-id]').first().waitFor();
    await page.getByRole('radio', { name: 'Eingeschränkt: nur was Sie ankreuzen' }).check();
    await page
      .getByRole('group', { name: 'Berechtigungen des Schlüssels' })
      .getByRole('checkbox', { name: /Auszahlungen anfordern/ })
      .check();
    await page.getByText('Mit diesem Schlüssel lässt sich Ihr Guthaben', { exact: false }).waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'developers-phone-de');
  });
});
