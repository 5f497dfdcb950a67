import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import {
  DESKTOP,
  PASSWORD,
  PHONE,
  merchantWithActivity,
  registerMerchant,
  seriousViolations,
  signIn,
  startDashboardStack,
  waitFor,
  type DashboardStack,
  type Tab,
} from './support/dashboard-stack.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(name) ? [path] : [];
  });

/** The page's own words in English and German, for the checks that read them. */
const WORDS = {
  en: {
    refund: 'Refund',
    confirmRefund: 'Confirm the refund',
    create: 'Create link',
    amountWrong: 'Enter an amount from 0.01',
    country: 'Country',
    germany: 'Germany',
    signedIn: 'signed in.',
    copy: 'Copy',
    date: /Nov \d{1,2}, \d{4}/,
  },
  de: {
    refund: 'Erstatten',
    confirmRefund: 'Erstattung bestätigen',
    create: 'Link erstellen',
    amountWrong: 'Geben Sie einen Betrag von 0,01',
    country: 'Land',
    germany: 'Deutschland',
    signedIn: 'hat sich angemeldet.',
    copy: 'Kopieren',
    date: /\d{2}\.\d{2}\.\d{4}/,
  },
} as const;

/**
 * The dashboard's finish, on a desktop in English and on a phone in German: money confirmed with
 * its amount and destination before it moves, one money format, chains and statuses in words with
 * colours that tell failure from cancellation and expiry, errors under their fields and never a
 * browser pop-up, the audit log in sentences naming who acted, filters as wide as their content,
 * the billing country from a list, invoice years from the first invoice, the public merchant id
 * and the widget snippet, and tabs that show they scroll on a phone.
 */
describe('dashboard: a finish that never breaks (Chromium, devnet)', function () {
  this.timeout(120_000);
  let s: DashboardStack;
  let merchant: Awaited<ReturnType<typeof registerMerchant>>;
  const email = `polish-${Date.now()}@example.com`;
  let paymentId: string;
  let checkoutOrigin: string;
  const tabs: Tab[] = [];

  before(async () => {
    s = await startDashboardStack();
    const made = await merchantWithActivity(s, email, '1500');
    ({ merchant, paymentId } = made);
    checkoutOrigin = new URL(made.checkoutUrl).origin;
  });
  after(async () => s?.close());
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await s.closeTab(tab);
  });

  it('uses neither window.alert nor window.confirm anywhere', () => {
    const offenders = sources(SRC).filter((f) =>
      /\bwindow\.(alert|confirm|prompt)\b|(^|[^.\w])(alert|confirm|prompt)\(/m.test(readFileSync(f, 'utf8')),
    );
    expect(offenders).to.deep.equal([]);
  });

  /** Any browser pop-up the page opens, recorded (and dismissed) so the test can refuse it. */
  const trapDialogs = (page: Page) => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    return dialogs;
  };

  for (const [lang, viewport, size] of [
    ['en', DESKTOP, 'desktop'],
    ['de', PHONE, 'phone'],
  ] as const)
    it(`is finished on a ${size} in ${lang === 'en' ? 'English' : 'German'}`, async () => {
      const w = WORDS[lang];
      const tab = await s.open({ viewport, locale: lang === 'en' ? 'en-US' : 'de-DE' });
      tabs.push(tab);
      const { page } = tab;
      const dialogs = trapDialogs(page);
      if (lang === 'en') await signIn(page, email);
      else {
        await page.getByLabel('E-Mail').fill(email);
        await page.getByLabel('Passwort').fill(PASSWORD);
        await page.getByRole('button', { name: 'Anmelden' }).click();
        await page.getByRole('heading', { name: 'Übersicht' }).waitFor();
      }
      const base = s.stack.dashboardUrl;
      const shot = (name: string) => s.shot(page, `polish-${name}-${size}-${lang}`);

      // On a phone the tabs overflow, and a fade at their edge shows it.
      const nav = await page.locator('nav.sections').evaluate((el) => ({
        scrolls: el.scrollWidth > el.clientWidth,
        mask: getComputedStyle(el).maskImage || getComputedStyle(el).getPropertyValue('-webkit-mask-image'),
      }));
      if (size === 'phone') {
        expect(nav.scrolls).to.equal(true);
        expect(nav.mask).to.contain('gradient');
      } else expect(nav.mask === 'none' || nav.mask === '').to.equal(true);
      await shot('home');

      // Payments: dates in the chosen locale, filters as wide as what they hold.
      await page.goto(`${base}#/payments`);
      const row = page.locator(`[data-payment-id="${paymentId}"]`);
      await row.waitFor();
      expect(await row.innerText()).to.match(w.date);
      const widths = await page
        .locator('.filter-grid select')
        .evaluateAll((els) => els.map((el) => (el as HTMLElement).offsetWidth));
      expect(Math.min(...widths), 'a currency select is narrow').to.be.below(120);
      expect(await seriousViolations(page)).to.deep.equal([]);
      await shot('payments');

      // A payment: the chain in words, one money format, and a refund confirmed before it moves.
      await page.goto(`${base}#/payments/${paymentId}`);
      const details = page.locator('dl.details').first();
      await details.waitFor();
      const text = await details.innerText();
      expect(text)
        .to.contain('Base')
        .and.not.match(/\bBASE\b/);
      expect(text).to.contain(lang === 'en' ? '1,500.00 USDC' : '1.500,00 USDC');
      await page.locator('#refund-amount').fill('abc');
      await page.getByRole('button', { name: w.refund, exact: true }).click();
      const amountError = page.locator('#refund-amount-error');
      await amountError.waitFor();
      expect(await page.locator('#refund-amount').getAttribute('aria-invalid')).to.equal('true');
      expect(await page.locator('.refund-form .alert.error').count(), 'no banner').to.equal(0);
      await page.locator('#refund-amount').fill(lang === 'en' ? '2.5' : '2,5');
      await page.getByRole('button', { name: w.refund, exact: true }).click();
      const confirm = page.getByRole('group', { name: w.confirmRefund });
      await confirm.waitFor();
      expect(await confirm.innerText())
        .to.contain(lang === 'en' ? '2.50 USDC' : '2,50 USDC')
        .and.contain('Base');
      const payer = (await s.gw.call('GET', `/payments/${paymentId}`, { headers: merchant.bearer })).body.data
        .from_address as string;
      expect(await confirm.locator('[data-confirm-destination]').innerText()).to.equal(payer);
      expect(await seriousViolations(page)).to.deep.equal([]);
      await shot('refund-confirm');

      // Checkout links: a wrong amount is said under the field, not in a banner.
      await page.goto(`${base}#/checkout`);
      await page.locator('#session-amount').fill('0');
      await page.getByRole('button', { name: w.create }).click();
      const sessionError = page.locator('#session-amount-error');
      await sessionError.waitFor();
      expect(await sessionError.innerText()).to.contain(w.amountWrong);
      expect(await page.locator('#session-amount').getAttribute('aria-describedby')).to.contain(
        'session-amount-error',
      );
      await shot('checkout-error');

      // Status colours: failure, cancellation and expiry each look different.
      const colours = await page.evaluate(() =>
        ['failed', 'cancelled', 'session_expired', 'pending'].map((status) => {
          const el = document.createElement('span');
          el.className = `badge badge-${status}`;
          document.body.append(el);
          const c = getComputedStyle(el).backgroundColor;
          el.remove();
          return c;
        }),
      );
      expect(new Set(colours).size, colours.join(' | ')).to.equal(4);

      // Developers: the public merchant id with its copy button, and a snippet ready to paste.
      await page.goto(`${base}#/developers`);
      const id = page.locator('[data-public-merchant-id]');
      await id.waitFor();
      expect(await id.innerText()).to.equal(merchant.merchantId);
      const snippet = page.locator('[data-widget-snippet]');
      await waitFor(
        async () => ((await snippet.innerText()).includes(checkoutOrigin) ? true : undefined),
        'snippet with the checkout origin',
      );
      expect(await snippet.innerText())
        .to.contain(`data-stablepay-merchant="${merchant.merchantId}"`)
        .and.contain(`<script src="${checkoutOrigin}/widget.js"></script>`);
      expect(await page.getByRole('button', { name: new RegExp(`^${w.copy}`) }).count()).to.be.at.least(2);
      expect(await seriousViolations(page)).to.deep.equal([]);
      await shot('developers');

      // Billing: the country from a list named in the reader's language; invoice years from the first.
      await page.goto(`${base}#/money/billing`);
      const country = page.getByLabel(w.country, { exact: true });
      await country.waitFor();
      await country.selectOption('DE');
      expect(await country.locator('option:checked').innerText()).to.equal(w.germany);
      expect(await seriousViolations(page)).to.deep.equal([]);
      await shot('billing');
      await page.goto(`${base}#/money/invoices`);
      const years = await page
        .locator('#i-year option')
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
      // No invoice yet: only this year to choose.
      expect(years).to.deep.equal([String(new Date().getFullYear())]);

      // The audit log in sentences, naming the user who acted.
      await page.goto(`${base}#/security`);
      const entry = page.locator('[data-audit-action="auth.login_succeeded"]').first();
      await entry.waitFor();
      expect(await entry.innerText()).to.contain(`${email} ${w.signedIn}`);
      expect(await seriousViolations(page)).to.deep.equal([]);
      await shot('security');

      expect(dialogs, 'no browser pop-up').to.deep.equal([]);
    });
});
