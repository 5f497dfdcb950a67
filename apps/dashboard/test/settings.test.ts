import { expect } from 'chai';
import { scriptedSvg, solidPng } from '@stablepay/platform/testing/images';
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

const DESKTOP = { width: 1280, height: 800 };

/** The screen's words in English and German, for the checks that read them. */
const WORDS = {
  en: {
    title: 'Settings',
    name: 'Shop name',
    accent: 'Accent colour',
    merchant: 'My shop',
    save: 'Save settings',
    saved: 'Settings saved.',
    bidi: 'invisible text-direction characters',
    light: 'below the 4.5:1 needed',
    svg: 'SVG is not accepted',
    upload: 'Upload logo',
    logoSaved: 'Logo saved.',
  },
  de: {
    title: 'Einstellungen',
    name: 'Shop-Name',
    accent: 'Akzentfarbe',
    merchant: 'Mein Shop',
    save: 'Einstellungen speichern',
    saved: 'Einstellungen gespeichert.',
    bidi: 'unsichtbaren Schreibrichtungszeichen',
    light: 'weniger als die nötigen 4,5:1',
    svg: 'SVG wird nicht angenommen',
    upload: 'Logo hochladen',
    logoSaved: 'Logo gespeichert.',
  },
} as const;

/**
 * The settings screen in Chromium against the whole stack: the shop's name, accent colour (with a
 * preview) and fee bearer saved together, mistakes said under their fields, the logo previewed,
 * checked and uploaded, then shown as the gateway serves it; on a desktop in English and a phone in
 * German, with no request beyond the dashboard and the gateway and nothing serious for axe.
 */
describe('dashboard: settings (Chromium, devnet)', function () {
  this.timeout(120_000);
  let s: DashboardStack;
  const tabs: Tab[] = [];

  before(async () => {
    // Every test signs in through the page, more often than the gateway's default allows a minute.
    s = await startDashboardStack({ RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
  });
  after(async () => s?.close());
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await s.closeTab(tab);
  });

  for (const [lang, viewport, size] of [
    ['en', DESKTOP, 'desktop'],
    ['de', PHONE, 'phone'],
    ['de', DESKTOP, 'desktop'],
    ['en', PHONE, 'phone'],
  ] as const)
    it(`changes what customers see on a ${size} in ${lang === 'en' ? 'English' : 'German'}`, async () => {
      const w = WORDS[lang];
      const email = `settings-${lang}-${size}-${Date.now()}@example.com`;
      const merchant = await registerMerchant(s.gw, email);
      const tab = await s.open({ viewport, locale: lang === 'en' ? 'en-US' : 'de-DE' });
      tabs.push(tab);
      const { page } = tab;
      if (lang === 'en') await signIn(page, email);
      else {
        await page.getByLabel('E-Mail').fill(email);
        await page.getByLabel('Passwort').fill(PASSWORD);
        await page.getByRole('button', { name: 'Anmelden' }).click();
        await page.getByRole('heading', { name: 'Übersicht' }).waitFor();
      }
      const shot = (name: string) => s.shot(page, `settings-${name}-${size}-${lang}`);
      await page.getByRole('link', { name: w.title }).click();
      await page.getByRole('heading', { name: w.title, level: 1 }).waitFor();
      expect(await page.getByLabel(w.name).inputValue()).to.equal('Corner Shop');
      expect(await seriousViolations(page)).to.deep.equal([]);
      await shot('start');

      // Mistakes are said under their fields, not in a banner.
      await page.getByLabel(w.name).fill('Corner \u202Egnp.exe');
      await page.locator('#settings-accent').fill('#ffff00');
      await page.getByRole('button', { name: w.save }).click();
      await page.locator('#settings-name-error').waitFor();
      expect(await page.locator('#settings-name-error').innerText()).to.contain(w.bidi);
      expect(await page.locator('#settings-accent-error').innerText()).to.contain(w.light);
      expect(await page.locator('#settings-name').getAttribute('aria-invalid')).to.equal('true');
      expect(await page.locator('form .alert.error').count(), 'no banner').to.equal(0);
      expect(await seriousViolations(page)).to.deep.equal([]);
      await shot('errors');

      await page.getByLabel(w.name).fill('Acme Roasters');
      await page.locator('#settings-accent').fill('#0b5fff');
      const preview = await page
        .locator('.accent-preview .preview-button')
        .evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(preview).to.equal('rgb(11, 95, 255)');
      await page.getByRole('radio', { name: w.merchant }).check();
      await page.getByRole('button', { name: w.save }).click();
      await page.getByText(w.saved).waitFor();
      await page.locator('header .merchant', { hasText: 'Acme Roasters' }).waitFor();

      // The logo: an SVG is refused under the field; a PNG is previewed, uploaded and served.
      const file = page.locator('#settings-logo');
      await file.setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: scriptedSvg() });
      expect(await page.locator('#settings-logo-error').innerText()).to.contain(w.svg);
      // A file that calls itself a PNG but is not one passes the page's check; the gateway refuses
      // it by its bytes, and that is said under the same field, in the page's language.
      await file.setInputFiles({
        name: 'fake.png',
        mimeType: 'image/png',
        buffer: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
      });
      await page.getByRole('button', { name: w.upload }).click();
      await page.locator('#settings-logo-error', { hasText: w.svg }).waitFor();
      expect(await page.locator('.logo-card .alert.error').count(), 'no banner').to.equal(0);
      await file.setInputFiles({
        name: 'logo.png',
        mimeType: 'image/png',
        buffer: solidPng(200, 80, '#0b5fff'),
      });
      await page.locator('[data-logo-preview]').waitFor();
      await page.getByRole('button', { name: w.upload }).click();
      await page.getByText(w.logoSaved).waitFor();
      const current = page.locator('[data-current-logo]');
      await current.waitFor();
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('[data-current-logo]');
        return !!img && img.complete && img.naturalWidth === 200;
      });
      expect(await current.getAttribute('src')).to.match(
        new RegExp(`^${s.stack.gatewayUrl}/merchants/${merchant.merchantId}/logo\\?v=[0-9a-f]{16}$`),
      );
      expect(await seriousViolations(page)).to.deep.equal([]);
      await shot('saved');

      const settings = await s.gw.call('GET', '/merchant-settings', { headers: merchant.bearer });
      expect(settings.body.data).to.deep.include({
        name: 'Acme Roasters',
        accent_color: '#0b5fff',
        network_fee_bearer: 'merchant',
      });
      expect(settings.body.data.logo).to.include({ content_type: 'image/png', width: 200, height: 80 });
      const audit = await s.gw.call('GET', '/audit-log', { headers: merchant.bearer });
      const actions = audit.body.data.entries.map((e: { action: string }) => e.action);
      expect(actions).to.include.members(['merchant.settings_updated', 'merchant.logo_updated']);
    });

  it("keeps the language picked in the picker as the merchant's, for the e-mails they are sent", async () => {
    const email = `settings-language-${Date.now()}@example.com`;
    const merchant = await registerMerchant(s.gw, email);
    const before = await s.gw.call('GET', '/merchant-settings', { headers: merchant.bearer });
    expect(before.body.data.language).to.equal(null);
    const tab = await s.open({ viewport: DESKTOP });
    tabs.push(tab);
    const { page } = tab;
    await signIn(page, email);
    const languageOf = async () =>
      (await s.gw.call('GET', '/merchant-settings', { headers: merchant.bearer })).body.data.language;
    for (const lang of ['fr', 'it'] as const) {
      await page.locator('#lang').selectOption(lang);
      await waitFor(async () => ((await languageOf()) === lang ? true : undefined), `language ${lang}`);
      // The words arrive when their catalogue has loaded, which may be after the settings are saved.
      await page.waitForFunction((l) => document.documentElement.lang === l, lang);
      expect(await page.evaluate(() => document.documentElement.lang)).to.equal(lang);
    }
    const audit = await s.gw.call('GET', '/audit-log', { headers: merchant.bearer });
    const languages = audit.body.data.entries
      .filter((e: { action: string }) => e.action === 'merchant.settings_updated')
      .map((e: { details: { language?: string } }) => e.details.language);
    expect(languages).to.include.members(['fr', 'it']);
  });
});
