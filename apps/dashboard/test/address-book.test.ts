import { expect } from 'chai';
import { Wallet } from 'ethers';
import type { Page } from 'playwright-core';
import {
  PASSWORD,
  PHONE,
  registerMerchant,
  seriousViolations,
  signIn,
  startDashboardStack,
  waitFor,
  type DashboardStack,
  type Tab,
} from './support/dashboard-stack.js';
import { authenticatorCode } from './support/totp.js';

const HOLD_SECONDS = 3;
const STEP_UP_MAX_AGE_SECONDS = 30;
const SCREEN = { width: 1280, height: 800 };

/**
 * The withdrawal address book in the dashboard against the whole stack: an address added with its
 * waiting period counting down live until withdrawals may go there, removed after a confirmation,
 * and each change confirmed by the merchant (a recent sign-in, the password again, or a code).
 */
describe('dashboard: withdrawal address book with its waiting period (Chromium)', function () {
  this.timeout(120_000);
  let s: DashboardStack;
  const tabs: Tab[] = [];

  before(async () => {
    s = await startDashboardStack({
      WITHDRAWAL_ADDRESS_HOLD: `${HOLD_SECONDS}s`,
      STEP_UP_MAX_AGE_SECONDS: String(STEP_UP_MAX_AGE_SECONDS),
    });
  });
  after(async () => s?.close());
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await s.closeTab(tab);
  });

  const open = async (opts?: Parameters<DashboardStack['open']>[0]) => {
    const tab = await s.open({ viewport: SCREEN, ...opts });
    tabs.push(tab);
    return tab;
  };
  const toAddressBook = async (page: Page) => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Withdrawals & invoices' })
      .click();
    await page.getByRole('link', { name: 'Withdrawal addresses' }).first().click();
    await page.getByRole('heading', { name: 'Add an address' }).waitFor();
  };
  const addAddress = async (page: Page, label: string, address: string) => {
    await page.getByLabel('Label').fill(label);
    await page.getByLabel('Destination address').fill(address);
    await page.getByRole('button', { name: 'Add address' }).click();
  };
  const row = (page: Page, label: string) => page.locator('ul.address-book li').filter({ hasText: label });

  it('adds an address that counts down its waiting period, then offers it for withdrawals; removal is confirmed', async () => {
    const email = `book-${Date.now()}@example.com`;
    const merchant = await registerMerchant(s.gw, email);
    const { page } = await open();
    const signedInAt = Date.now();
    await signIn(page, email);
    await toAddressBook(page);
    await page.getByText('No addresses yet.').waitFor();

    await addAddress(page, 'Savings', '0x1234');
    await page.getByText('Enter an address of 0x and 40 hexadecimal characters.').waitFor();
    const address = Wallet.createRandom().address;
    // One character's case changed: the checksum catches the typo, and the service says so.
    const typo = address.replace(/[a-f]/, (c) => c.toUpperCase());
    await addAddress(page, 'Savings', typo);
    await page
      .getByRole('alert')
      .filter({ hasText: /checksum/ })
      .waitFor();
    await addAddress(page, 'Savings', address.toLowerCase());
    await page.getByText(/“Savings” was added\. Withdrawals can go there from/).waitFor();

    const savings = row(page, 'Savings');
    await savings.locator('[data-status="on_hold"]').waitFor();
    expect(await savings.locator('[data-address]').innerText()).to.equal(address);
    const countdown = await savings.locator('[data-usable-in]').innerText();
    expect(countdown).to.match(/usable in [1-3] s/);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'address-book-on-hold-desktop');
    // The countdown runs, and when the waiting period is over the address is active.
    await savings.locator('[data-status="active"]').waitFor({ timeout: 15_000 });
    expect(await savings.locator('[data-usable-in]').count()).to.equal(0);

    // Announced to the audit log, as this user, confirmed by a recent sign-in.
    const audit = await waitFor(async () => {
      const r = await s.gw.call('GET', '/audit-log?action=withdrawal_address.added', {
        headers: merchant.bearer,
      });
      return r.body.data.entries.length ? r.body.data.entries : undefined;
    }, 'audit entry');
    expect(audit[0].details).to.include({ address, label: 'Savings', stepUp: 'recent_sign_in' });

    // The withdrawal form picks its destination from the book.
    await page.getByRole('link', { name: 'Withdrawals', exact: true }).click();
    await page.getByRole('heading', { name: 'Request a withdrawal' }).waitFor();
    await page.locator('#w-destination option').first().waitFor({ state: 'attached' });
    const options = await page.locator('#w-destination option').allTextContents();
    expect(options).to.deep.equal([`Savings · ${address}`]);

    // Removing asks first; keeping it changes nothing.
    await page.getByRole('link', { name: 'Withdrawal addresses' }).first().click();
    await savings.getByRole('button', { name: 'Remove Savings' }).click();
    const confirm = page.getByRole('group', { name: 'Confirm removing Savings' });
    expect(await confirm.innerText()).to.contain('Withdrawals can no longer go to this address.');
    await s.shot(page, 'address-book-remove-confirm-desktop');
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await confirm.waitFor({ state: 'detached' });
    await savings.getByRole('button', { name: 'Remove Savings' }).click();
    await confirm.getByRole('button', { name: 'Remove address' }).click();
    await savings.waitFor({ state: 'detached' });
    await page.getByText('No addresses yet.').waitFor();

    // Once the sign-in is no longer recent, the password is asked for, and then the change goes through.
    await page.waitForTimeout(Math.max(0, signedInAt + (STEP_UP_MAX_AGE_SECONDS + 2) * 1000 - Date.now()));
    const second = Wallet.createRandom().address;
    await addAddress(page, 'Exchange', second);
    await page
      .getByText('For your safety, confirm it is you: enter your password, then try again.')
      .waitFor();
    await page.getByLabel('Your password').fill(PASSWORD);
    await s.shot(page, 'address-book-password-desktop');
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByText(/“Exchange” was added/).waitFor();
    await row(page, 'Exchange').waitFor();
    expect(await page.getByLabel('Your password').count()).to.equal(0);
    const book = await s.gw.call('GET', '/withdrawal-addresses', { headers: await s.signInApi(email) });
    expect(book.body.data.addresses.map((a: { address: string }) => a.address)).to.deep.equal([second]);
  });

  it('asks for an authenticator code when two-factor sign-in is on (in German, on a phone)', async () => {
    const email = `book-2fa-${Date.now()}@example.com`;
    const merchant = await registerMerchant(s.gw, email);
    const setup = await s.gw.call('POST', '/auth/mfa/totp/setup', { headers: merchant.bearer });
    const secret = setup.body.data.secret as string;
    const enabled = await s.gw.call('POST', '/auth/mfa/totp/enable', {
      headers: merchant.bearer,
      body: { code: authenticatorCode(secret) },
    });
    expect(enabled.status).to.equal(200);
    const recovery = enabled.body.data.recovery_codes as string[];

    const { page } = await open({ viewport: PHONE, locale: 'de-DE' });
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    // A recovery code signs in and leaves the authenticator's next code for the change below.
    await page.getByLabel('Code aus Ihrer Authenticator-App').fill(recovery[0]!);
    await page.getByRole('button', { name: 'Bestätigen' }).click();
    await page.getByRole('heading', { name: 'Übersicht' }).waitFor();
    await page.evaluate(() => {
      window.location.hash = '#/money/addresses';
    });
    await page.getByRole('heading', { name: 'Adresse hinzufügen' }).waitFor();

    const address = Wallet.createRandom().address;
    await page.getByLabel('Bezeichnung').fill('Treasury');
    await page.getByLabel('Zieladresse').fill(address);
    const code = page.getByLabel('Code aus Ihrer Authenticator-App');
    await code.fill('000000');
    await page.getByRole('button', { name: 'Adresse hinzufügen' }).click();
    await page.getByRole('alert').filter({ hasText: 'The code is not valid' }).waitFor();
    expect(await code.inputValue()).to.equal('');
    await code.fill(authenticatorCode(secret, 1));
    await page.getByRole('button', { name: 'Adresse hinzufügen' }).click();
    await page.getByText(/„Treasury“ wurde hinzugefügt/).waitFor();
    const treasury = row(page, 'Treasury');
    await treasury.locator('[data-status="on_hold"]').waitFor();
    expect(await treasury.innerText()).to.match(/Wartezeit[\s\S]*nutzbar in [1-3] Sek\./);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'address-book-phone');

    // Removal asks for a code too.
    await treasury.getByRole('button', { name: 'Treasury entfernen' }).click();
    await page
      .getByRole('group', { name: 'Entfernen von Treasury bestätigen' })
      .getByLabel('Code aus Ihrer Authenticator-App')
      .waitFor();
    await s.shot(page, 'address-book-remove-code-phone');

    const audit = await waitFor(async () => {
      const r = await s.gw.call('GET', '/audit-log?action=withdrawal_address.added', {
        headers: merchant.bearer,
      });
      return r.body.data.entries.length ? r.body.data.entries : undefined;
    }, 'audit entry');
    expect(audit[0].details).to.include({ address, stepUp: 'mfa' });
  });
});
