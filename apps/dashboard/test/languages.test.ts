import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { en, type Messages } from '../src/i18n/en.js';
import { es } from '../src/i18n/es.js';
import { fr } from '../src/i18n/fr.js';
import { it as italian } from '../src/i18n/it.js';
import {
  DESKTOP,
  PASSWORD,
  PHONE,
  overflows,
  merchantWithActivity,
  seriousViolations,
  signIn,
  startDashboardStack,
  type DashboardStack,
  type Tab,
} from './support/dashboard-stack.js';

const CATALOGUES = { fr, es, it: italian } as const;
type Lang = keyof typeof CATALOGUES;

/** What each language must show that English would not: its money, its dates, an audit sentence. */
const LOCAL = {
  // fr groups with a narrow no-break space; es and it group only from five digits (CLDR's minimum
  // grouping: 1500, 12.500).
  fr: {
    money: '1\u202f500,00 USDC',
    date: /\d{1,2} [a-zéû]{3,5}\.? \d{4}/,
    signedIn: 'a ouvert une session.',
  },
  es: { money: '1500,00 USDC', date: /\d{1,2} [a-z]{3,4}\.? \d{4}/, signedIn: 'inició sesión.' },
  it: { money: '1500,00 USDC', date: /\d{1,2} [a-z]{3} \d{4}/, signedIn: 'ha effettuato l’accesso.' },
} as const;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The English words a page in `lang` must not show: every English message without a placeholder
 * whose translation differs, unless the translation itself uses the same word (Italian says
 * "Dashboard" and "Password" too).
 */
const englishLeftovers = (lang: Lang): RegExp[] => {
  const target: Messages = CATALOGUES[lang];
  const translated = Object.values(target).join('\n');
  return (Object.keys(en) as Array<keyof Messages>)
    .filter((k) => !en[k].includes('{') && en[k] !== target[k] && /[a-z]{3}/i.test(en[k]))
    .map((k) => new RegExp(`(^|[^\\p{L}])${escape(en[k])}($|[^\\p{L}])`, 'u'))
    .filter((re) => !re.test(translated));
};
/** Built once per language: the catalogues do not change during the run. */
const LEFTOVERS = Object.fromEntries(
  (Object.keys(CATALOGUES) as Lang[]).map((lang) => [lang, englishLeftovers(lang)]),
) as Record<Lang, RegExp[]>;

/** The page's own words: code samples (the widget snippet, event names) are not language. */
const pageWords = (page: Page) =>
  page.evaluate(() => {
    const body = document.body.cloneNode(true) as HTMLElement;
    for (const el of body.querySelectorAll('code, pre, script, style')) el.remove();
    document.body.append(body);
    body.style.cssText = 'position:absolute;left:-99999px;top:0';
    const text = body.innerText;
    body.remove();
    return text;
  });

/**
 * The dashboard in French, Spanish and Italian, as a merchant switches to each on a desktop and as a
 * phone whose browser speaks it opens it: every screen in that language (no English left, no
 * placeholder unfilled), money and dates in its format, the audit log in its sentences, no axe
 * violation, nothing wider than the window, and the choice kept across a reload.
 */
describe('dashboard: French, Spanish and Italian (Chromium, devnet)', function () {
  this.timeout(240_000);
  let s: DashboardStack;
  const email = `lang-${Date.now()}@example.com`;
  let paymentId: string;
  const tabs: Tab[] = [];

  before(async () => {
    s = await startDashboardStack();
    ({ paymentId } = await merchantWithActivity(s, email, '1500'));
  });
  after(async () => s?.close());
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await s.closeTab(tab);
  });

  /** Opens a screen and waits until it has loaded; then checks its words, its layout and axe. */
  const screen = async (page: Page, lang: Lang, route: string, heading: string | RegExp, ready?: string) => {
    const m = CATALOGUES[lang];
    await page.goto(`${s.stack.dashboardUrl}#/${route}`);
    await page
      .getByRole('heading', { name: heading, exact: typeof heading === 'string' })
      .first()
      .waitFor();
    if (ready) await page.locator(ready).first().waitFor();
    await page.waitForFunction((loading) => !document.body.innerText.includes(loading), m.loading);
    const words = await pageWords(page);
    const leftovers = LEFTOVERS[lang].filter((re) => re.test(words)).map((re) => re.source);
    expect(leftovers, `${lang} #/${route}: English left`).to.deep.equal([]);
    expect(words, `${lang} #/${route}: a placeholder unfilled`).not.to.match(/\{[a-z]\w*\}/i);
    expect(await overflows(page), `${lang} #/${route}: wider than the window`).to.deep.equal([]);
    expect(await seriousViolations(page), `${lang} #/${route}: axe`).to.deep.equal([]);
    return words;
  };

  for (const [lang, viewport, size] of [
    ['fr', DESKTOP, 'desktop'],
    ['es', DESKTOP, 'desktop'],
    ['it', DESKTOP, 'desktop'],
    ['fr', PHONE, 'phone'],
    ['es', PHONE, 'phone'],
    ['it', PHONE, 'phone'],
  ] as const)
    it(`reads in ${lang} on a ${size}`, async () => {
      const m = CATALOGUES[lang];
      const local = LOCAL[lang];
      // A desktop is English until the merchant picks the language; a phone opens in its own.
      const tab = await s.open({
        viewport,
        locale: size === 'phone' ? `${lang}-${lang.toUpperCase()}` : 'en-US',
      });
      tabs.push(tab);
      const { page } = tab;
      const shot = (name: string) => s.shot(page, `languages-${name}-${size}-${lang}`);
      if (size === 'desktop') {
        await signIn(page, email);
        await page.locator('#lang').selectOption(lang);
        await page.getByRole('heading', { name: m.homeTitle }).waitFor();
      } else {
        await page.getByRole('heading', { name: m.signInTitle }).waitFor();
        expect(await seriousViolations(page)).to.deep.equal([]);
        await shot('sign-in');
        await page.getByLabel(m.email, { exact: true }).fill(email);
        await page.getByLabel(m.password, { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: m.signIn, exact: true }).click();
        await page.getByRole('heading', { name: m.homeTitle }).waitFor();
      }
      expect(await page.evaluate(() => document.documentElement.lang)).to.equal(lang);

      await screen(page, lang, '', m.homeTitle, `[data-payment-id="${paymentId}"]`);
      await shot('home');
      const payments = await screen(
        page,
        lang,
        'payments',
        m.paymentsTitle,
        `[data-payment-id="${paymentId}"]`,
      );
      expect(payments).to.match(local.date);
      await shot('payments');
      const paymentHeading = new RegExp(`^${escape(m.paymentOf.split(' {')[0]!)} `);
      const payment = await screen(page, lang, `payments/${paymentId}`, paymentHeading, 'dl.details');
      expect(payment).to.contain(local.money);
      await shot('payment');
      await screen(page, lang, 'refunds', m.refundsTitle);
      await screen(page, lang, 'checkout', m.checkoutTitle, 'table');
      await shot('checkout');
      await screen(page, lang, 'balance', m.btTitle, 'table');
      await screen(page, lang, 'money', m.navMoney);
      await shot('withdrawals');
      await screen(page, lang, 'money/invoices', m.navMoney);
      await screen(page, lang, 'money/billing', m.navMoney, '#b-language');
      await shot('billing');
      await screen(page, lang, 'money/addresses', m.navMoney);
      await screen(page, lang, 'developers', m.developersTitle, '[data-public-merchant-id]');
      await shot('developers');
      await screen(page, lang, 'settings', m.settingsTitle, '#settings-name');
      await shot('settings');
      const security = await screen(
        page,
        lang,
        'security',
        m.securityTitle,
        '[data-audit-action="auth.login_succeeded"]',
      );
      expect(security).to.contain(`${email} ${local.signedIn}`);
      await shot('security');

      // The choice is the merchant's, kept across a reload.
      await page.reload();
      await page.locator('#lang').waitFor();
      expect(await page.locator('#lang').inputValue()).to.equal(lang);
      expect(await page.evaluate(() => document.documentElement.lang)).to.equal(lang);
    });
});
