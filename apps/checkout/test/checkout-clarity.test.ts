import { expect } from 'chai';
import { formatUnits, getAddress } from 'ethers';
import { qrTagUnits } from '@stablepay/payments';
import type { Frame, Page } from 'playwright-core';
import { join } from 'node:path';
import { seriousViolations } from './support/axe.js';
import {
  SHOP,
  SHOTS_DIR,
  startCheckoutStack,
  trackedCustomers,
  type CheckoutStack,
} from './support/checkout-stack.js';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SIZES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

/**
 * What the customer reads before and while paying, in Chromium against the whole stack on the
 * devnet: chains by their names with each way's fee and time, why the e-mail is asked for, the QR
 * path spelled out, the steps in view with no way to "cancel" money already moving, the merchant's
 * {CHECKOUT_SESSION_ID} URLs, and the five languages, each loaded only when read.
 */
describe('checkout page reads plainly (Chromium, devnet)', function () {
  this.timeout(120_000);
  let s: CheckoutStack;
  before(async () => {
    s = await startCheckoutStack();
  });
  after(async () => s?.close());
  const customer = trackedCustomers(() => s);

  /** The visible page, not the whole document: what a customer on that screen sees at that moment. */
  const viewShot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS_DIR, `${name}.png`) });

  const inViewport = (frame: Page | Frame, selector: string) =>
    frame.evaluate((sel) => {
      const box = document.querySelector(sel)!.getBoundingClientRect();
      return box.top >= 0 && box.top < window.innerHeight && box.height > 0;
    }, selector);

  it('names chains as people do and shows each way to pay with its fee and time, before paying', async () => {
    const session = await s.createSession({ amount: '25.00', currency: 'USDC' });
    for (const [size, viewport] of SIZES) {
      const { page } = await customer({ viewport });
      await page.goto(session.url);
      // The e-mail says that it is required, and why.
      const email = page.getByLabel('E-mail for your receipt (required)');
      expect(await email.getAttribute('required')).to.not.equal(null);
      expect(await page.locator('#email-hint').innerText()).to.equal(
        'We send your receipt here, and use it if a refund is ever needed.',
      );
      await email.fill('payer@example.com');
      await page.getByRole('button', { name: 'Connect your wallet' }).click();
      const options = page.locator('.option:has(input[name="option"])');
      await options.first().waitFor();
      expect(await options.count()).to.equal(3);
      const costs: Record<string, { name: string; cost: string }> = Object.fromEntries(
        await Promise.all(
          ['BASE', 'ETH', 'MATIC'].map(async (chain) => {
            const option = page.locator(`.option:has(input[data-chain="${chain}"])`);
            return [
              chain,
              {
                name: await option.locator('.option-name').innerText(),
                cost: await option.locator('[data-option-cost]').innerText(),
              },
            ];
          }),
        ),
      );
      expect(costs.BASE.name).to.equal('USDC on Base');
      expect(costs.ETH.name).to.equal('USDC on Ethereum, bridged to Base (CCTP)');
      expect(costs.MATIC.name).to.equal('USDC on Polygon PoS, bridged to Base (CCTP)');
      // The transfer path's gas in each chain's own token; bridged, Circle's fee at most; times from
      // the confirmations and CCTP's fast attestation (about 20 s from Ethereum, 8 s elsewhere).
      expect(costs.BASE.cost).to.match(/^Network fee about [\d.]+ ETH · about 5 s$/);
      expect(costs.ETH.cost).to.match(
        /^Network fee about [\d.]+ ETH, bridge fee at most [\d.]+ USDC · about 25 s$/,
      );
      expect(costs.MATIC.cost).to.match(
        /^Network fee about [\d.]+ POL \+ [\d.]+ ETH, bridge fee at most [\d.]+ USDC · about 15 s$/,
      );
      const text = await page.locator('.wallet').innerText();
      expect(text, 'no ticker shown as a chain name').to.not.match(/\b(BASE|MATIC)\b/);
      expect(await seriousViolations(page), size).to.deep.equal([]);
      await s.shot(page, `clarity-${size}-options`);
      // With the signature chosen, the chosen way's fees are the quote's, listed before signing.
      await page.locator('input[data-chain="BASE"]').check();
      await page.locator('[data-funding="authorization"]').check();
      expect(
        await page.locator('.option:has(input[data-chain="BASE"]) [data-option-cost]').innerText(),
      ).to.equal('Fees paid in USDC, listed below before you sign · about 5 s');
    }
  });

  it('keeps the steps in view on a phone, hides Cancel once money moves, and returns to a URL with the session id', async () => {
    const session = await s.createSession({
      amount: '7.25',
      currency: 'USDC',
      return_url: `${SHOP}/thanks?session={CHECKOUT_SESSION_ID}`,
      cancel_url: `${SHOP}/cart/{CHECKOUT_SESSION_ID}`,
    });
    const view = await s.merchantSession(session.id);
    expect(view.return_url).to.equal(`${SHOP}/thanks?session=${session.id}`);
    const { page, wallet } = await customer({ viewport: PHONE });
    await page.goto(session.url);
    await page.getByLabel('E-mail for your receipt').fill('steps@example.com');
    await page.getByRole('button', { name: 'Connect your wallet' }).click();
    await page.locator('input[data-chain="BASE"][data-cross-chain="false"]').check();
    const cancel = page.locator('[data-cancel]');
    expect(await cancel.getAttribute('href')).to.equal(`${SHOP}/cart/${session.id}`);
    const seen: { cancel: number; stepsInView: boolean; transfer: string | null }[] = [];
    wallet!.afterSend = async (_hash, frame) => {
      seen.push({
        cancel: await frame.locator('[data-cancel]').count(),
        stepsInView: await inViewport(frame, '[data-steps]'),
        transfer: await frame.locator('[data-step="transfer"]').getAttribute('data-state'),
      });
      await viewShot(page, 'clarity-phone-paying');
    };
    await page.locator('[data-pay]').click();
    await page.waitForURL(`${SHOP}/thanks?session=${session.id}`, { timeout: 60_000 });
    // While the wallet was sending, the page showed the steps where the customer looks, no Cancel.
    expect(seen).to.deep.equal([{ cancel: 0, stepsInView: true, transfer: 'active' }]);
    await s.expectPaid(session.id);

    // Before anything moves, Cancel leads to the cancel URL with the session id filled in.
    const other = await s.createSession({ amount: '1', cancel_url: `${SHOP}/cart/{CHECKOUT_SESSION_ID}` });
    const c2 = await customer({ viewport: DESKTOP });
    await c2.page.goto(other.url);
    await c2.page.locator('[data-cancel]').click();
    await c2.page.waitForURL(`${SHOP}/cart/${other.id}`);
  });

  it('explains the QR tag, shows checksummed addresses with copy buttons, and offers the wallet app on a phone', async () => {
    const session = await s.createSession({ amount: '6.50', currency: 'USDC' });
    const base = s.chain('BASE');
    const merchant = getAddress(s.shop.wallet.address);
    const token = getAddress(base.tokens.USDC!);
    const units = 6_500_000n + qrTagUnits(session.id);
    for (const [size, viewport] of SIZES) {
      const { page, context } = await customer({ wallet: false, viewport });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(session.url).origin,
      });
      await page.goto(session.url);
      await page.getByLabel('E-mail for your receipt').fill('qr@example.com');
      await page.getByRole('button', { name: 'Show the payment code' }).click();
      const uri = `ethereum:${token}@${base.chainId}/transfer?address=${merchant}&uint256=${units}`;
      expect(await page.locator('svg.qr').getAttribute('data-qr')).to.equal(uri);
      const tag = formatUnits(qrTagUnits(session.id), 6);
      expect(await page.locator('[data-qr-tag]').innerText()).to.equal(
        `The last digits of the amount (${tag} USDC) mark this payment as yours, so send exactly this amount.`,
      );
      expect(await page.locator('[data-qr-chain]').innerText()).to.equal(`Base (${base.chainId})`);
      expect(await page.locator('[data-qr-address]').innerText()).to.equal(merchant);
      expect(await page.locator('.facts code.addr').first().innerText()).to.equal(token);
      for (const [name, value] of [
        ['Copy the amount', formatUnits(units, 6)],
        ["Copy the token's address", token],
        ["Copy the merchant's address", merchant],
      ] as const) {
        const button = page.getByRole('button', { name });
        await button.click();
        await page.locator(`[data-copied="${await button.getAttribute('data-copy')}"]`).waitFor();
        expect(await button.locator('xpath=following-sibling::span[1]').innerText()).to.equal('Copied');
        const copied = await page.evaluate(() => navigator.clipboard.readText());
        if (name === 'Copy the amount') expect(Number(copied)).to.equal(Number(value));
        else expect(copied).to.equal(value);
      }
      // EIP-681 link to the wallet app: on a phone only (a desktop has no wallet app to open).
      const link = page.getByRole('link', { name: 'Open in wallet app' });
      expect(await link.isVisible(), size).to.equal(size === 'phone');
      expect(await page.locator('[data-wallet-link]').getAttribute('href')).to.equal(uri);
      expect(await seriousViolations(page), size).to.deep.equal([]);
      await s.shot(page, `clarity-${size}-qr`);
    }
  });

  it('speaks en, de, fr, es and it on the page and in the widget, loading only the language read', async () => {
    const session = await s.createSession({ amount: '12.00', currency: 'USDC' });
    const { page } = await customer({ viewport: PHONE });
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
    await page.goto(session.url);
    await page.getByRole('heading', { name: 'Pay Shop' }).waitFor();
    // English is built in: no other catalogue is fetched for an English reader.
    expect(scripts.filter((p) => /\/(de|fr|es|it)-[\w-]+\.js$/.test(p))).to.deep.equal([]);
    for (const [lang, heading, email] of [
      ['it', 'Paga Shop', 'E-mail per la ricevuta (obbligatoria)'],
      ['de', 'An Shop zahlen', 'E-Mail für Ihre Quittung (Pflichtfeld)'],
      ['fr', 'Payer Shop', 'E-mail pour votre reçu (obligatoire)'],
      ['es', 'Pagar a Shop', 'Correo para su recibo (obligatorio)'],
      ['en', 'Pay Shop', 'E-mail for your receipt (required)'],
    ] as const) {
      await page.locator('#lang').selectOption(lang);
      await page.getByRole('heading', { name: heading }).waitFor();
      expect(await page.locator('html').getAttribute('lang')).to.equal(lang);
      await page.getByLabel(email).waitFor();
    }
    expect(scripts.filter((p) => /\/(de|fr|es|it)-[\w-]+\.js$/.test(p))).to.have.length(4);

    for (const [size, viewport] of SIZES) {
      const it = await customer({ viewport });
      await it.page.goto(`${session.url}&lang=it`);
      await it.page.getByRole('heading', { name: 'Paga Shop' }).waitFor();
      await it.page.getByLabel('E-mail per la ricevuta').fill('cliente@example.com');
      await it.page.getByRole('button', { name: 'Collega il Suo wallet' }).click();
      await it.page.getByText('USDC su Base', { exact: true }).waitFor();
      expect(
        await it.page.locator('.option:has(input[data-chain="BASE"]) [data-option-cost]').innerText(),
      ).to.match(/^Commissione di rete di circa [\d,]+ ETH · circa 5 s$/);
      expect(await seriousViolations(it.page), size).to.deep.equal([]);
      await s.shot(it.page, `clarity-${size}-it`);
    }

    // The widget frames the same page: Italian there too.
    const w = await customer({ viewport: PHONE });
    await w.page.goto(
      `${s.h.stack.checkoutUrl.replace(/\/?$/, '/')}embed.html?merchant=${s.shop.merchantId}&amount=5&lang=it&origin=${encodeURIComponent(SHOP)}`,
    );
    await w.page.getByRole('heading', { name: 'Paga Shop' }).waitFor();
    await w.page.getByRole('button', { name: 'Collega il Suo wallet' }).waitFor();
  });
});
