import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { FrameLocator, Page } from 'playwright-core';
import { startCheckoutServer, type CheckoutServer } from '../server/src/server.js';
import {
  register,
  startCheckoutStack,
  waitFor,
  type CheckoutStack,
  type Customer,
} from './support/checkout-stack.js';

/** A shop's page: one script tag from the checkout origin, buttons, and every result in a list. */
const shopPage = (widgetJs: string, buttons: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A merchant's shop</title></head>
<body>
  <h1>Shop</h1>
  <p>Cart total: <output id="total">3.75</output> USDC</p>
  ${buttons}
  <ol id="results"></ol>
  <script src="${widgetJs}"></script>
  <script>
    document.addEventListener('stablepay:result', (e) => {
      const li = document.createElement('li');
      li.textContent = JSON.stringify(e.detail);
      document.getElementById('results').append(li);
    });
  </script>
</body></html>`;

/**
 * A shop's site on its own origin (another loopback port, since Chromium refuses a public page's
 * requests into the loopback address space): answers each path with the page `pages` holds for it.
 */
const startShop = async (pages: Map<string, string>): Promise<{ origin: string; server: Server }> => {
  const server = createServer((req, res) => {
    const page = pages.get(new URL(req.url ?? '/', 'http://shop.invalid').pathname);
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html' });
    res.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
};

const PAYMENT_FRAME = 'iframe[title="Payment"]';
const LONG_NAME = 'SupercalifragilisticexpialidociousStores';

/**
 * The widget as shops use it: their page on another origin than the checkout, one script tag, the
 * overlay framing embed.html. The checkout lets a page frame it only for the origin the loader
 * names when that origin is the shop's (listed for the deployment, or a session's return URL); the
 * frame fits its page, has one close control, closes on Escape and after a payment with the result.
 */
describe('embeddable widget on a shop page of another origin (Chromium, devnet)', function () {
  this.timeout(90_000);
  let s: CheckoutStack;
  // The shop the deployment lists (WIDGET_ORIGINS of a checkout server of its own), and one it does not.
  const listedPages = new Map<string, string>();
  const unlistedPages = new Map<string, string>();
  let listed: Awaited<ReturnType<typeof startShop>>;
  let unlisted: Awaited<ReturnType<typeof startShop>>;
  let checkout: CheckoutServer;
  const opened: Customer[] = [];

  before(async () => {
    s = await startCheckoutStack();
    [listed, unlisted] = await Promise.all([startShop(listedPages), startShop(unlistedPages)]);
    checkout = await startCheckoutServer({ host: '127.0.0.1', port: 0, widgetOrigins: [listed.origin] });
    const { stack } = s.h;
    checkout.configure({ gatewayUrl: stack.gatewayUrl }, [
      stack.gatewayUrl,
      ...stack.devnet.chains.map((c) => c.rpcUrl),
      stack.attestation.url,
    ]);
    const merchantButtons = `
      <button id="buy" data-stablepay-merchant="${s.shop.merchantId}" data-amount="8.40" data-reference="order-77">Buy</button>
      <button id="cart" data-stablepay-merchant="${s.shop.merchantId}" data-amount-from="#total">Pay the cart</button>`;
    listedPages.set('/shop', shopPage(`${checkout.url}widget.js`, merchantButtons));
    unlistedPages.set('/shop', shopPage(`${checkout.url}widget.js`, merchantButtons));
  });
  afterEach(async () => {
    for (const c of opened.splice(0)) await c.context.close();
  });
  after(async () => {
    listed?.server.close();
    unlisted?.server.close();
    await checkout?.stop();
    await s?.close();
  });

  const open = async (url: string, opts?: Parameters<CheckoutStack['customer']>[0]) => {
    const c = await s.customer(opts);
    opened.push(c);
    await c.page.goto(url);
    return c;
  };
  const results = async (page: Page): Promise<Array<Record<string, string>>> =>
    (await page.locator('#results li').allInnerTexts()).map((t) => JSON.parse(t));
  const cspErrors = (c: Customer) =>
    c.consoleErrors.filter((e) => /Content Security Policy|Refused to/.test(e));

  /**
   * The frame's height against its page's: equal (the frame fits) once the page has told it, or the
   * overlay's cap (the viewport less the close control's room) when the page is taller than that,
   * as the connected gasless step is on a 900px desktop; the page inside then scrolls.
   */
  const heights = async (page: Page, frame: FrameLocator) => ({
    frame: await page.locator(PAYMENT_FRAME).evaluate((el) => el.getBoundingClientRect().height),
    cap: await page.locator(PAYMENT_FRAME).evaluate((el) => parseFloat(getComputedStyle(el).maxHeight)),
    content: await frame.locator('#app').evaluate((el) => el.getBoundingClientRect().height),
  });
  const fitted = (page: Page, frame: FrameLocator) =>
    waitFor(async () => {
      const h = await heights(page, frame);
      return Math.abs(h.frame - Math.min(Math.ceil(h.content), h.cap)) <= 1 ? h : undefined;
    }, 'the frame fitted to its page');

  it('frames the checkout for a listed shop, fitted to its page with one close control, and pays', async () => {
    const c = await open(`${listed.origin}/shop`);
    const { page, wallet } = c;
    await page.getByRole('button', { name: 'Buy' }).click();
    const frame = page.frameLocator(PAYMENT_FRAME);
    await frame.getByRole('heading', { name: 'Pay Shop' }).waitFor();
    expect(await frame.locator('[data-amount]').innerText()).to.match(/8\.40\s+USDC/);
    const h = await fitted(page, frame);
    // The page is shorter than the old fixed 44rem frame, and nothing inside scrolls.
    expect(h.frame).to.be.below(700);
    expect(await frame.locator('html').evaluate((el) => el.scrollHeight <= el.clientHeight)).to.equal(true);
    expect(await page.getByRole('button', { name: 'Close' }).count()).to.equal(1);
    expect(await frame.getByRole('link', { name: /close|cancel/i }).count()).to.equal(0);
    await s.shot(page, 'desktop-widget');

    await frame.getByLabel('E-mail for your receipt').fill('widget@example.com');
    await frame.getByRole('button', { name: 'Connect your wallet' }).click();
    await frame.locator('input[data-chain="BASE"][data-cross-chain="false"]').check();
    await fitted(page, frame);
    await s.shot(page, 'desktop-widget-connected');
    await frame.locator('[data-pay]').click();
    const [result] = await waitFor(
      async () => ((await results(page)).length ? results(page) : undefined),
      'the result',
      60_000,
    );
    expect(result).to.include({ status: 'completed' });
    expect(result!.txHash).to.equal(wallet!.sent.at(-1)!.toLowerCase());
    // The overlay closes by itself after showing "Paid", with the result already told.
    await page.locator('[data-stablepay-overlay]').waitFor({ state: 'detached' });
    expect(await results(page)).to.have.length(1);

    const payment = await waitFor(async () => {
      const r = await s.h.gw.call('GET', `/payments/api/${result!.paymentId}`, { headers: s.shop.key });
      return r.body.data?.status === 'completed' ? r.body.data : undefined;
    }, 'payment completed');
    expect(payment).to.include({
      amount: '8.400000',
      reference: 'order-77',
      customer_email: 'widget@example.com',
    });
    await waitFor(
      () =>
        s.h.events.find(
          (e) => e.type === 'payment.completed' && e.body.data.payment_id === result!.paymentId,
        ),
      'payment.completed published',
    );
    const foreign = c.foreign.filter(
      (u) => ![listed.origin, new URL(checkout.url).origin].includes(new URL(u).origin),
    );
    expect(foreign).to.deep.equal([]);
    expect(cspErrors(c)).to.deep.equal([]);
  });

  it('takes the cart total, and closes with a cancel on Escape (in the frame or the page) and on ×', async () => {
    const { page } = await open(`${listed.origin}/shop`);
    const frame = page.frameLocator(PAYMENT_FRAME);
    const cancelled = async (n: number) => {
      await page.locator('[data-stablepay-overlay]').waitFor({ state: 'detached' });
      expect(await results(page)).to.deep.equal(Array(n).fill({ status: 'cancelled' }));
    };
    await page.getByRole('button', { name: 'Pay the cart' }).click();
    await frame.getByText('3.75').waitFor();
    // Keys pressed inside the frame: the page inside tells the loader.
    await frame.getByLabel('E-mail for your receipt').focus();
    await page.keyboard.press('Escape');
    await cancelled(1);

    await page.getByRole('button', { name: 'Pay the cart' }).click();
    await frame.getByText('3.75').waitFor();
    await page.mouse.click(5, 5);
    await page.keyboard.press('Escape');
    await cancelled(2);

    await page.getByRole('button', { name: 'Pay the cart' }).click();
    await frame.getByText('3.75').waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    await cancelled(3);
  });

  it('fits a phone screen', async () => {
    const { page } = await open(`${listed.origin}/shop`, { viewport: { width: 390, height: 844 } });
    await page.getByRole('button', { name: 'Buy' }).click();
    const frame = page.frameLocator(PAYMENT_FRAME);
    await frame.getByRole('heading', { name: 'Pay Shop' }).waitFor();
    const h = await fitted(page, frame);
    expect(h.frame).to.be.below(844);
    const box = (await page.locator(PAYMENT_FRAME).boundingBox())!;
    expect(box.x).to.be.at.least(0);
    expect(box.x + box.width).to.be.at.most(390);
    const close = (await page.getByRole('button', { name: 'Close' }).boundingBox())!;
    expect(close.y).to.be.at.least(0);
    expect(close.width).to.be.at.least(40);
    await s.shot(page, 'phone-widget');
  });

  it("refuses to be framed by a shop origin the deployment does not list (frame-ancestors 'none')", async () => {
    const c = await open(`${unlisted.origin}/shop`);
    await c.page.getByRole('button', { name: 'Buy' }).click();
    await waitFor(() => cspErrors(c).find((e) => /frame-ancestors 'none'/.test(e)), 'the framing refused');
    expect(await c.page.frameLocator(PAYMENT_FRAME).locator('#app').count()).to.equal(0);
    // The customer still has the way out.
    await c.page.getByRole('button', { name: 'Close' }).click();
    await c.page.locator('[data-stablepay-overlay]').waitFor({ state: 'detached' });
  });

  it("frames a checkout session only for the origin of the session's return URL", async () => {
    const session = await s.createSession({
      amount: '5.00',
      return_url: `${unlisted.origin}/thanks`,
      cancel_url: `${unlisted.origin}/cart`,
    });
    const frameAncestors = async (origin: string) => {
      const url = `${s.h.stack.checkoutUrl}embed.html?session=${session.id}&origin=${encodeURIComponent(origin)}`;
      const csp = (await fetch(url)).headers.get('content-security-policy')!;
      return /frame-ancestors ([^;]+)/.exec(csp)![1];
    };
    expect(await frameAncestors(unlisted.origin)).to.equal(unlisted.origin);
    expect(await frameAncestors(listed.origin)).to.equal("'none'");
    const sessionButton = `<button data-stablepay-session="${session.id}">Check out</button>`;
    // The stack's checkout server lists no shop at all: the session alone decides.
    const page = shopPage(`${s.h.stack.checkoutUrl}widget.js`, sessionButton);
    unlistedPages.set('/session', page);
    listedPages.set('/session', page);

    const ok = await open(`${unlisted.origin}/session`);
    await ok.page.getByRole('button', { name: 'Check out' }).click();
    const frame = ok.page.frameLocator(PAYMENT_FRAME);
    await frame.getByRole('heading', { name: 'Pay Shop' }).waitFor();
    expect(await frame.locator('[data-amount]').innerText()).to.match(/5\.00\s+USDC/);
    await fitted(ok.page, frame);
    expect(cspErrors(ok)).to.deep.equal([]);

    const other = await open(`${listed.origin}/session`);
    await other.page.getByRole('button', { name: 'Check out' }).click();
    await waitFor(
      () => cspErrors(other).find((e) => /frame-ancestors 'none'/.test(e)),
      'the framing refused',
    );
  });

  it('works on the example page served beside the widget, under its own policy', async () => {
    const c = await open(`${s.h.stack.checkoutUrl}widget-example.html?merchant=${s.shop.merchantId}`);
    await c.page.getByRole('button', { name: 'Pay 12.50 USDC' }).click();
    const frame = c.page.frameLocator(PAYMENT_FRAME);
    await frame.getByRole('heading', { name: 'Pay Shop' }).waitFor();
    await fitted(c.page, frame);
    await s.shot(c.page, 'desktop-widget-example');
    await c.page.keyboard.press('Escape');
    await c.page.locator('[data-stablepay-overlay]').waitFor({ state: 'detached' });
    expect(await c.page.locator('#result').innerText()).to.contain('cancelled');
    expect(cspErrors(c)).to.deep.equal([]);
  });

  it('wraps a 40-character name without a space inside the card, on desktop and phone', async () => {
    const merchant = await register(s.h, `long-name-${Date.now()}@example.com`, LONG_NAME);
    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 800 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const { page } = await open(`${s.h.stack.checkoutUrl}?merchant=${merchant.merchantId}&amount=1.00`, {
        viewport,
        wallet: false,
      });
      const heading = page.getByRole('heading', { name: `Pay ${LONG_NAME}` });
      await heading.waitFor();
      const fits = await page
        .locator('.card')
        .first()
        .evaluate((card) => {
          const h1 = card.querySelector('h1')!;
          const c = card.getBoundingClientRect();
          const t = h1.getBoundingClientRect();
          return {
            inCard: t.left >= c.left && t.right <= c.right,
            noOverflow: h1.scrollWidth <= h1.clientWidth && card.scrollWidth <= card.clientWidth,
            pageFits: document.documentElement.scrollWidth <= window.innerWidth,
            lines: Math.round(t.height / parseFloat(getComputedStyle(h1).lineHeight)),
          };
        });
      expect(fits, name).to.include({ inCard: true, noOverflow: true, pageFits: true });
      if (name === 'phone') expect(fits.lines).to.be.at.least(2);
      await s.shot(page, `${name}-long-name`);
    }
  });

  it('stays under 100 KB gzipped without the cross-chain code', () => {
    const sizes = JSON.parse(
      readFileSync(fileURLToPath(new URL('../dist/sizes.json', import.meta.url)), 'utf8'),
    );
    expect(sizes.widget.gzipBytes).to.be.below(100 * 1024);
    expect(Object.keys(sizes.lazy).some((f) => /cross-chain-/.test(f))).to.equal(true);
  });
});
