import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { Interface, JsonRpcProvider } from 'ethers';
import type { Page } from 'playwright-core';
import { injectWallet } from '../../checkout/test/support/wallet.js';
import {
  PHONE,
  registerMerchant,
  seriousViolations,
  signIn,
  startDashboardStack,
  waitFor,
  type DashboardStack,
  type Tab,
} from './support/dashboard-stack.js';

const SHOP = 'http://shop.test';
const transferEvent = new Interface([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

/**
 * Payments in the dashboard against the whole stack on the devnet: the list with its filters,
 * search, sort, `since`, pages and CSV export; a payment made by the hosted checkout page is shown
 * with its on-chain details, partly refunded from the dashboard, and the refund completes on-chain.
 */
describe('dashboard: payments and refunds (Chromium, devnet)', function () {
  this.timeout(120_000);
  let s: DashboardStack;
  let merchant: Awaited<ReturnType<typeof registerMerchant>>;
  const email = `payments-${Date.now()}@example.com`;
  const tabs: Tab[] = [];
  let checkoutPayment: { id: string; tx_hash: string; from_address: string };
  let sinceCheckout: string;

  /** Pays a checkout session on the hosted checkout page with an injected devnet wallet. */
  const payOnCheckoutPage = async (amount: string) => {
    const created = await s.gw.call('POST', '/checkout/sessions', {
      headers: { 'x-api-key': merchant.key },
      body: { amount, currency: 'USDC', return_url: `${SHOP}/thanks` },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const context = await s.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    try {
      await context.route(`${SHOP}/**`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<h1>Shop</h1>' }),
      );
      const customer = s.stack.devnet.customers.at(-1)!;
      await injectWallet(
        context,
        customer.privateKey,
        s.stack.devnet.chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl })),
        s.chain('BASE').chainId,
      );
      const page = await context.newPage();
      await page.goto(created.body.data.url);
      await page.getByLabel('E-mail for your receipt').fill('checkout-payer@example.com');
      await page.getByRole('button', { name: 'Connect your wallet' }).click();
      await page.locator('input[data-chain="BASE"][data-cross-chain="false"]').check();
      await page.locator('[data-pay]').click();
      await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });
    } finally {
      await context.close();
    }
    const session = await waitFor(async () => {
      const r = await s.gw.call('GET', `/checkout/sessions/${created.body.data.id}`, {
        headers: { 'x-api-key': merchant.key },
      });
      return r.body.data?.status === 'complete' ? r.body.data : undefined;
    }, 'checkout session paid');
    return session.payment as { id: string; tx_hash: string };
  };

  before(async () => {
    s = await startDashboardStack({ REFUND_HOLD_SECONDS: '2' });
    merchant = await registerMerchant(s.gw, email);
    const paid = [];
    for (const [token, amount, reference] of [
      ['USDC', '10', 'order-1001'],
      ['USDC', '99.99', 'order-1002'],
      ['EURC', '7', 'order-1003'],
    ] as const)
      paid.push(
        await s.pay({
          merchantId: merchant.merchantId,
          to: merchant.wallet.address,
          token,
          amount,
          reference,
        }),
      );
    await new Promise((r) => setTimeout(r, 50));
    sinceCheckout = new Date().toISOString();
    const fromCheckout = await payOnCheckoutPage('25');
    for (const id of [...paid.map((p) => p.paymentId), fromCheckout.id])
      await waitFor(async () => {
        const r = await s.gw.call('GET', `/payments/${id}`, { headers: merchant.bearer });
        return r.body.data?.status === 'completed' ? r.body.data : undefined;
      }, `payment ${id} completed`);
    checkoutPayment = (await s.gw.call('GET', `/payments/${fromCheckout.id}`, { headers: merchant.bearer }))
      .body.data;
  });
  after(async () => s?.close());
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await s.closeTab(tab);
  });

  const open = async (opts?: Parameters<DashboardStack['open']>[0]) => {
    const tab = await s.open(opts);
    tabs.push(tab);
    await signIn(tab.page, email);
    return tab;
  };
  const total = async (page: Page, expected: number) => {
    await page.locator(`[data-total="${expected}"]`).waitFor();
    return page
      .locator('[data-payment-id]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-payment-id')));
  };
  const amounts = (page: Page) =>
    page.locator('[data-payment-id] td.num').evaluateAll((cells) => cells.map((c) => c.textContent?.trim()));

  it('filters, searches, sorts, pages, polls with since and exports the filtered list as CSV', async () => {
    const { page } = await open();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click();
    expect(await total(page, 4)).to.have.length(4);

    await page.getByLabel('Currency').selectOption('EURC');
    await page.getByRole('button', { name: 'Apply' }).click();
    await total(page, 1);
    expect(await amounts(page)).to.deep.equal(['7.00 EURC']);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Search').fill('order-1002');
    await page.getByRole('button', { name: 'Apply' }).click();
    await total(page, 1);
    expect(await amounts(page)).to.deep.equal(['99.99 USDC']);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Sort by').selectOption('amount');
    await page.getByLabel('Order').selectOption('asc');
    await page.getByRole('button', { name: 'Apply' }).click();
    await total(page, 4);
    await waitFor(async () => ((await amounts(page))[0] === '7.00 EURC' ? true : undefined), 'sorted');
    expect(await amounts(page)).to.deep.equal(['7.00 EURC', '10.00 USDC', '25.00 USDC', '99.99 USDC']);

    // Two per page: the second page holds the two largest.
    await page.evaluate(() => (window.location.hash = '#/payments?sortBy=amount&sortDirection=asc&limit=2'));
    await page.getByText('1–2 of 4').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('3–4 of 4').waitFor();
    expect(await amounts(page)).to.deep.equal(['25.00 USDC', '99.99 USDC']);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).to.equal(true);

    // `since`: only what was created after the moment, as a poller asks.
    await page.evaluate(
      (since) => (window.location.hash = `#/payments?since=${encodeURIComponent(since)}`),
      sinceCheckout,
    );
    expect(await total(page, 1)).to.deep.equal([checkoutPayment.id]);
    expect(await page.getByLabel('Created after').inputValue()).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);

    // The CSV holds the filtered list, every page of it.
    await page.evaluate(() => (window.location.hash = '#/payments?currency=USDC&limit=2'));
    await total(page, 3);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'payments-desktop');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).to.match(/^payments-.*\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).to.equal(
      'id,created_at,amount,currency,status,customer_email,reference,source_chain,is_cross_chain,tx_hash,from_address,to_address,metadata',
    );
    expect(csv).to.have.length(4);
    expect(csv.slice(1).every((line) => line.includes(',USDC,completed,'))).to.equal(true);
    expect(csv.join('\n')).to.contain('order-1001').and.contain('order-1002').and.not.contain('order-1003');
  });

  it('shows a checkout-page payment with its on-chain details and refunds part of it on-chain', async () => {
    const { page } = await open();
    await page.locator(`[data-payment-id="${checkoutPayment.id}"] a`).click();
    await page.getByRole('heading', { name: /Payment of 25\.00 USDC/ }).waitFor();
    expect(await page.locator(`[data-value="${checkoutPayment.tx_hash}"]`).count()).to.equal(1);
    expect(await page.locator(`[data-value="${checkoutPayment.from_address}"]`).count()).to.equal(1);
    await page.getByText('Completed: funds received').waitFor();
    // The history is the one the payments service recorded, transition by transition.
    const recorded = (await s.gw.call('GET', `/payments/${checkoutPayment.id}`, { headers: merchant.bearer }))
      .body.data.status_history as Array<{ status: string; at: string }>;
    expect(recorded.map((c) => c.status)).to.deep.equal(['pending', 'completed']);
    const shown = await page
      .locator('ol.history time')
      .evaluateAll((times) => times.map((el) => el.getAttribute('datetime')));
    expect(shown).to.deep.equal(recorded.map((c) => c.at));

    await page.getByLabel('Amount (USDC)').fill('5');
    await page.getByLabel('Reason').selectOption('requested_by_customer');
    await page.getByLabel('Internal note (optional)').fill('Damaged on arrival');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    // Nothing moves before the amount and the destination were shown and confirmed.
    const confirm = page.getByRole('group', { name: 'Confirm the refund' });
    expect(await confirm.innerText())
      .to.contain('5.00 USDC')
      .and.contain('The payer’s address');
    await s.shot(page, 'refund-confirm-desktop');
    await confirm.getByRole('button', { name: 'Send refund' }).click();
    await page.getByText('Refund of 5.00 USDC created.').waitFor();
    const refund = page.locator('[data-refund-id]');
    await refund.waitFor();
    const refundId = (await refund.getAttribute('data-refund-id'))!;
    // The page follows the refund until it ends.
    await refund.locator('[data-status="completed"]').waitFor({ timeout: 60_000 });
    const txHash = (await refund.locator('[data-value]').getAttribute('data-value'))!;

    const detail = (await s.gw.call('GET', `/refunds/${refundId}`, { headers: merchant.bearer })).body.data;
    expect(detail).to.include({
      status: 'completed',
      amount: '5.000000',
      note: 'Damaged on arrival',
      tx_hash: txHash,
    });
    const base = s.chain('BASE');
    const provider = new JsonRpcProvider(base.rpcUrl, base.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    try {
      const receipt = (await provider.getTransactionReceipt(txHash))!;
      expect(receipt.status).to.equal(1);
      const transfers = receipt.logs
        .filter((l) => l.address.toLowerCase() === base.tokens.USDC!.toLowerCase())
        .map((l) => transferEvent.parseLog(l)!)
        .filter((e) => e?.name === 'Transfer');
      expect(
        transfers.some(
          (e) =>
            e.args.from.toLowerCase() === merchant.wallet.address.toLowerCase() &&
            e.args.to.toLowerCase() === checkoutPayment.from_address.toLowerCase() &&
            e.args.value === 5_000_000n,
        ),
        'the refund transfer to the payer',
      ).to.equal(true);
    } finally {
      provider.destroy();
    }
    // What is left to refund is offered next.
    await page.getByText('Leave empty to refund everything left: 20.00 USDC.').waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'payment-detail-desktop');
  });

  it('works on a phone-sized screen', async () => {
    const { page } = await open({ viewport: PHONE });
    await page.evaluate(() => (window.location.hash = '#/payments'));
    await total(page, 4);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'payments-phone');
    await page.locator(`[data-payment-id="${checkoutPayment.id}"] a`).click();
    await page.getByRole('heading', { name: /Payment of 25\.00 USDC/ }).waitFor();
    await page.locator('[data-refund-id] [data-status="completed"]').waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'payment-detail-phone');
  });
});
