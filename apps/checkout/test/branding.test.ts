import { expect } from 'chai';
import { solidPng } from '@stablepay/platform/testing/images';
import { seriousViolations } from './support/axe.js';
import {
  closeCustomer,
  register,
  startCheckoutStack,
  waitFor,
  type CheckoutStack,
  type Customer,
  type Merchant,
} from './support/checkout-stack.js';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const ACCENT = '#7c2d12';

/**
 * The checkout page in the merchant's colours: its logo (served by the gateway) and name in the
 * header, its accent on the pay button and links, the tab titled "Pay <merchant>" with the logo as
 * its icon; a merchant without settings keeps the product's own colour and icon. No request leaves
 * the checkout, the gateway and the chains, and axe finds nothing serious, on a desktop and a phone
 * in English and German.
 */
describe('checkout page: the merchant’s branding (Chromium, devnet)', function () {
  this.timeout(120_000);
  let s: CheckoutStack;
  let brand: Merchant;
  let logoUrl: string;
  const opened: Customer[] = [];

  const sessionOf = async (merchant: Merchant) => {
    const r = await s.h.gw.call('POST', '/checkout/sessions', {
      headers: merchant.key,
      body: { amount: '25.00', currency: 'USDC', return_url: 'http://shop.test/thanks' },
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body.data as { id: string; url: string };
  };

  before(async () => {
    s = await startCheckoutStack();
    brand = await register(s.h, `brand-${Date.now()}@example.com`, 'Acme Roasters');
    const logo = await s.h.gw.call('PUT', '/merchant-settings/api/logo', {
      headers: brand.key,
      body: { image: solidPng(160, 64, '#7c2d12').toString('base64') },
    });
    expect(logo.status, JSON.stringify(logo.body)).to.equal(200);
    logoUrl = new URL(logo.body.data.logo.url, s.h.stack.gatewayUrl).href;
    const put = await s.h.gw.call('PUT', '/merchant-settings/api', {
      headers: brand.key,
      body: { accent_color: ACCENT },
    });
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    // The settings reach the session's public view through merchant.settings_updated.
    const probe = await sessionOf(brand);
    await waitFor(async () => {
      const pub = await s.h.gw.call('GET', `/checkout/sessions/${probe.id}/public`);
      return pub.body.data?.merchant.accent_color === ACCENT || undefined;
    }, 'settings projected');
  });
  after(async () => s?.close());
  afterEach(async () => {
    for (const c of opened.splice(0)) await closeCustomer(c);
  });

  for (const [lang, viewport, size, title] of [
    ['en', DESKTOP, 'desktop', 'Pay Acme Roasters'],
    ['de', PHONE, 'phone', 'An Acme Roasters zahlen'],
    ['de', DESKTOP, 'desktop', 'An Acme Roasters zahlen'],
    ['en', PHONE, 'phone', 'Pay Acme Roasters'],
  ] as const)
    it(`shows the logo, name and accent colour on a ${size} in ${lang}`, async () => {
      const session = await sessionOf(brand);
      const c = await s.customer({ viewport });
      opened.push(c);
      const { page } = c;
      await page.goto(`${session.url}&lang=${lang}`);
      await page.getByRole('heading', { name: title }).waitFor();
      const logo = page.locator('.summary [data-merchant-logo]');
      await logo.waitFor();
      expect(await logo.getAttribute('src')).to.equal(logoUrl);
      expect(await logo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).to.equal(160);
      await waitFor(async () => (await page.title()) === title || undefined, 'tab title');
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).to.equal(logoUrl);
      const colours = await page.evaluate(() => {
        const button = document.querySelector('.button.primary')!;
        return {
          accent: getComputedStyle(document.documentElement).getPropertyValue('--accent').trim(),
          button: getComputedStyle(button).backgroundColor,
          ink: getComputedStyle(button).color,
        };
      });
      expect(colours).to.deep.equal({
        accent: ACCENT,
        button: 'rgb(124, 45, 18)',
        ink: 'rgb(255, 255, 255)',
      });
      // The header fits the card: the logo beside the name, nothing wider than the page.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      expect(overflow).to.equal(false);
      expect(await seriousViolations(page)).to.deep.equal([]);
      await s.shot(page, `branding-${size}-${lang}`);
    });

  it('keeps the product’s own colour and icon for a merchant without settings', async () => {
    const session = await sessionOf(s.shop);
    const c = await s.customer({ viewport: DESKTOP });
    opened.push(c);
    const { page } = c;
    await page.goto(session.url);
    await page.getByRole('heading', { name: 'Pay Shop' }).waitFor();
    expect(await page.locator('[data-merchant-logo]').count()).to.equal(0);
    await waitFor(async () => (await page.title()) === 'Pay Shop' || undefined, 'tab title');
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).to.equal('/favicon.svg');
    const icon = await fetch(new URL('/favicon.svg', session.url));
    expect(icon.status).to.equal(200);
    expect(icon.headers.get('content-type')).to.contain('image/svg+xml');
    const accent = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--accent').trim(),
    );
    expect(accent).to.equal('#1d4ed8');
    const csp = (await fetch(session.url)).headers.get('content-security-policy')!;
    expect(/img-src ([^;]+)/.exec(csp)![1]).to.equal(`'self' ${new URL(s.h.stack.gatewayUrl).origin}`);
  });
});
