import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { confirmationTokenFromMail, decodedMailText } from '@stablepay/stack';
import {
  PASSWORD,
  PHONE,
  registerMerchant,
  seriousViolations,
  startDashboardStack,
  waitFor,
  type DashboardStack,
  type Tab,
} from './support/dashboard-stack.js';

/** The .eml messages the stack's notifier wrote to one address, with the given notification header. */
const mailsTo = (mailDir: string, email: string, notification: string): string[] =>
  readdirSync(mailDir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => readFileSync(join(mailDir, f), 'utf8'))
    .filter(
      (m) =>
        new RegExp(`^x-stablepay-notification:\\s*${notification}\\s*$`, 'im').test(m) &&
        new RegExp(`^to:.*${email.replace(/[.+]/g, '\\$&')}`, 'im').test(m),
    );

/**
 * Registration in the dashboard against the whole stack: a registered address is answered as a
 * new one (its owner is e-mailed), a link that does not work offers a new one, and the pages read
 * the same in German.
 */
describe('dashboard: registration and e-mail confirmation (Chromium)', function () {
  this.timeout(90_000);
  let s: DashboardStack;
  const owner = `owner-${Date.now()}@example.com`;
  const tabs: Tab[] = [];

  before(async () => {
    // A new link may be asked for at once (the gateway's own suite covers the interval between two).
    s = await startDashboardStack({ EMAIL_CONFIRMATION_RESEND_SECONDS: '0' });
    await registerMerchant(s.gw, owner);
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
  const registerAs = async (page: Page, email: string, labels = REGISTER_EN) => {
    await page.getByRole('link', { name: labels.link }).click();
    await page.getByLabel(labels.business).fill('Second Shop');
    await page.getByLabel(labels.email).fill(email);
    await page.getByLabel(labels.password).fill(PASSWORD);
    await page.getByRole('button', { name: labels.submit }).click();
  };

  it('answers a registration of a registered address as a new one, and e-mails the owner', async () => {
    const { page } = await open();
    const fresh = `fresh-${Date.now()}@example.com`;
    await registerAs(page, fresh);
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    const freshText = await page.locator('main').innerText();
    await s.shot(page, 'signup-check-email');
    expect(await seriousViolations(page)).to.deep.equal([]);

    const second = await open();
    await registerAs(second.page, owner);
    await second.page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    expect((await second.page.locator('main').innerText()).replace(owner, fresh)).to.equal(freshText);

    const notices = await waitFor(async () => {
      const found = mailsTo(s.gw.mailDir, owner, 'registration_attempted');
      return found.length > 0 ? found : undefined;
    }, 'registration notice');
    expect(notices).to.have.length(1);
    expect(notices[0]).to.match(/Subject: Someone tried to register with your e-mail address/);

    // Sending the link again from the page: the new account gets a second confirmation e-mail.
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await page.getByText('If this address awaits confirmation, a new link is on its way.').waitFor();
  });

  it('says when a link does not work and offers a new one, signed out', async () => {
    const waiting = `waiting-${Date.now()}@example.com`;
    await s.gw.call('POST', '/auth/register', {
      body: { email: waiting, password: PASSWORD, merchantName: 'Waiting Shop', blockchain: 'BASE' },
    });
    const first = await waitFor(async () => confirmationTokenFromMail(s.gw.mailDir, waiting), 'first link');
    const { page } = await open();
    const [id] = first.split('.');
    await page.goto(new URL(`#/confirm-email?token=${id}.${'A'.repeat(43)}`, s.stack.dashboardUrl).href);
    await page.getByText('This link is not valid').waitFor();
    await s.shot(page, 'signup-link-invalid');
    expect(await seriousViolations(page)).to.deep.equal([]);
    await page.getByLabel('E-mail').fill(waiting);
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await page.getByText('If this address awaits confirmation, a new link is on its way.').waitFor();
    const second = await waitFor(async () => {
      const token = confirmationTokenFromMail(s.gw.mailDir, waiting);
      return token && token !== first ? token : undefined;
    }, 'second link');

    await page.goto(new URL(`#/confirm-email?token=${second}`, s.stack.dashboardUrl).href);
    await page.getByText(`Your e-mail address ${waiting} is confirmed.`).waitFor();
    await s.shot(page, 'signup-confirmed');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in to your dashboard' }).waitFor();
  });

  it('reads in German, on a phone: check your e-mail, and the banner until the address is confirmed', async () => {
    const { page } = await open({ viewport: PHONE, locale: 'de-DE' });
    const email = `de-${Date.now()}@example.com`;
    await registerAs(page, email, REGISTER_DE);
    await page.getByRole('heading', { name: 'Prüfen Sie Ihre E-Mails' }).waitFor();
    await page.getByText(`Wir haben einen Link an ${email} geschickt.`, { exact: false }).waitFor();
    // The page's language is the account's: its confirmation e-mail is in German.
    const [confirmation] = await waitFor(async () => {
      const found = mailsTo(s.gw.mailDir, email, 'email_confirmation');
      return found.length > 0 ? found : undefined;
    }, 'German confirmation e-mail');
    const text = decodedMailText(confirmation!);
    expect(text).to.include('Willkommen bei StablePay.').and.include('E-Mail-Adresse bestätigen');
    expect(text).not.to.include('Welcome to StablePay');
    await s.shot(page, 'signup-check-email-de');
    await page.getByRole('link', { name: 'Anmelden' }).click();
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('heading', { name: 'Bestätigen Sie Ihre E-Mail-Adresse' }).waitFor();
    await s.shot(page, 'signup-banner-de');
    expect(await seriousViolations(page)).to.deep.equal([]);
    await page.getByRole('button', { name: 'Link erneut senden' }).click();
    await page
      .getByText('Wenn diese Adresse auf Bestätigung wartet, ist ein neuer Link unterwegs.')
      .waitFor();
  });
});

const REGISTER_EN = {
  link: 'Create an account',
  business: 'Business name',
  email: 'E-mail',
  password: 'Password',
  submit: 'Create account',
};
const REGISTER_DE = {
  link: 'Konto erstellen',
  business: 'Name des Unternehmens',
  email: 'E-Mail',
  password: 'Passwort',
  submit: 'Konto erstellen',
};
