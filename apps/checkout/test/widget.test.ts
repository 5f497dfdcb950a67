import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { startCheckoutStack, waitFor, type CheckoutStack } from './support/checkout-stack.js';

const hostPage = (checkoutUrl: string, merchantId: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A merchant's shop</title></head>
<body>
  <h1>Shop</h1>
  <p>Cart total: <output id="total">3.75</output> USDC</p>
  <button id="buy" data-stablepay-merchant="${merchantId}" data-amount="8.40" data-reference="order-77">Buy</button>
  <button id="cart" data-stablepay-merchant="${merchantId}" data-amount-from="#total">Pay the cart</button>
  <pre id="result"></pre>
  <script src="${checkoutUrl}widget.js"></script>
  <script>
    document.addEventListener('stablepay:result', (e) => {
      document.getElementById('result').textContent = JSON.stringify(e.detail);
    });
  </script>
</body></html>`;

/**
 * The widget on a plain host page of another origin: one script tag, a button, the overlay iframe
 * with the same payment experience, create-public without a session, and the result told to the
 * host page.
 */
describe('embeddable widget on a merchant page (Chromium, devnet)', function () {
  this.timeout(90_000);
  let s: CheckoutStack;
  // The merchant's site: its own origin (another port), on loopback as the stack is, since Chromium
  // refuses a public page's requests into the loopback address space.
  let host: Server;
  let hostUrl: string;

  before(async () => {
    s = await startCheckoutStack();
    host = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(hostPage(s.h.stack.checkoutUrl, s.shop.merchantId));
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/shop`;
  });
  after(async () => {
    host?.close();
    await s?.close();
  });

  const openHost = async () => {
    const c = await s.customer();
    const chunks: string[] = [];
    c.page.on('request', (r) => chunks.push(r.url()));
    await c.page.goto(hostUrl);
    const foreign = () => c.foreign.filter((u) => new URL(u).origin !== new URL(hostUrl).origin);
    return { ...c, chunks, foreign };
  };

  it('pays a fixed amount from the overlay and tells the host page', async () => {
    const { page, wallet, foreign, chunks, context } = await openHost();
    await page.getByRole('button', { name: 'Buy' }).click();
    const frame = page.frameLocator('iframe[title="Payment"]');
    await frame.getByRole('heading', { name: 'Pay Shop' }).waitFor();
    expect(await frame.locator('[data-amount]').innerText()).to.match(/8\.40\s+USDC/);
    await s.shot(page, 'desktop-widget');
    await frame.getByLabel('E-mail for your receipt').fill('widget@example.com');
    await frame.getByRole('button', { name: 'Connect your wallet' }).click();
    await frame.locator('input[data-chain="BASE"][data-cross-chain="false"]').check();
    await frame.locator('[data-pay]').click();
    const result = JSON.parse(
      await waitFor(
        async () => (await page.locator('#result').innerText()) || undefined,
        'the result',
        60_000,
      ),
    );
    expect(result).to.include({ status: 'completed' });
    expect(result.txHash).to.equal(wallet!.sent.at(-1)!.toLowerCase());
    // The overlay closes by itself after showing "Paid".
    await page.locator('[data-stablepay-overlay]').waitFor({ state: 'detached' });

    const payment = await waitFor(async () => {
      const r = await s.h.gw.call('GET', `/payments/api/${result.paymentId}`, { headers: s.shop.key });
      return r.body.data?.status === 'completed' ? r.body.data : undefined;
    }, 'payment completed');
    expect(payment).to.include({
      amount: '8.400000',
      reference: 'order-77',
      customer_email: 'widget@example.com',
    });
    await waitFor(
      () =>
        s.h.events.find((e) => e.type === 'payment.completed' && e.body.data.payment_id === result.paymentId),
      'payment.completed published',
    );
    expect(
      chunks.some((u) => /cross-chain-/.test(u)),
      'the bridge code was never loaded',
    ).to.equal(false);
    expect(foreign()).to.deep.equal([]);
    await context.close();
  });

  it('takes the cart total from the host page, and reports a cancel', async () => {
    const { page, context } = await openHost();
    await page.getByRole('button', { name: 'Pay the cart' }).click();
    const frame = page.frameLocator('iframe[title="Payment"]');
    await frame.getByText('3.75').waitFor();
    await frame.getByRole('link', { name: 'Close' }).click();
    await waitFor(
      async () => (await page.locator('#result').innerText()).includes('cancelled'),
      'cancel result',
    );
    await page.locator('[data-stablepay-overlay]').waitFor({ state: 'detached' });
    await context.close();
  });

  it('stays under 100 KB gzipped without the cross-chain code', () => {
    const sizes = JSON.parse(
      readFileSync(fileURLToPath(new URL('../dist/sizes.json', import.meta.url)), 'utf8'),
    );
    expect(sizes.widget.gzipBytes).to.be.below(100 * 1024);
    expect(Object.keys(sizes.lazy).some((f) => /cross-chain-/.test(f))).to.equal(true);
  });
});
