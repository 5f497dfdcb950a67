import { expect } from 'chai';
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

/**
 * Checkout links and refunds in the dashboard against the whole stack on the devnet: a link made
 * in the dashboard is copied, paid on the hosted checkout page and shown paid; an open-amount
 * link; the list of every link, by status, with its link copied from a row; the refunds list with its filters and pages, and a refund's detail, cancelled while
 * pending.
 */
describe('dashboard: checkout links and refunds (Chromium, devnet)', function () {
  this.timeout(120_000);
  let s: DashboardStack;
  let merchant: Awaited<ReturnType<typeof registerMerchant>>;
  const email = `checkout-${Date.now()}@example.com`;
  const tabs: Tab[] = [];
  let refundIds: string[];
  let paymentId: string;

  before(async () => {
    s = await startDashboardStack();
    merchant = await registerMerchant(s.gw, email);
    ({ paymentId } = await s.pay({
      merchantId: merchant.merchantId,
      to: merchant.wallet.address,
      amount: '30',
      reference: 'order-2001',
    }));
    await waitFor(async () => {
      const r = await s.gw.call('GET', `/payments/${paymentId}`, { headers: merchant.bearer });
      return r.body.data?.status === 'completed';
    }, 'payment completed');
    // Refunds wait REFUND_HOLD_SECONDS (60 s by default) before they are sent: pending throughout.
    refundIds = [];
    for (const [amount, reason] of [
      ['2', 'requested_by_customer'],
      ['3', 'duplicate'],
      ['4', 'other'],
    ] as const) {
      // The refunds service learns of the payment from its event: asked before, it answers 404.
      const r = await waitFor(async () => {
        const res = await s.gw.call('POST', '/refunds', {
          headers: merchant.bearer,
          body: { paymentId, amount, reason, note: `note ${amount}` },
        });
        return res.status === 404 ? undefined : res;
      }, 'refund accepted');
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      refundIds.push(r.body.data.id);
    }
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

  /** Pays a checkout link on the hosted checkout page with an injected devnet wallet. */
  const payOnCheckoutPage = async (url: string) => {
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
      await page.goto(url);
      await page.getByLabel('E-mail for your receipt').fill('link-payer@example.com');
      await page.getByRole('button', { name: 'Connect your wallet' }).click();
      await page.locator('input[data-chain="BASE"][data-cross-chain="false"]').check();
      await page.locator('[data-pay]').click();
      await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });
    } finally {
      await context.close();
    }
  };

  it('creates a checkout link, copies it, and shows it paid after the checkout page', async () => {
    const { page, context } = await open();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(s.stack.dashboardUrl).origin,
    });
    await signIn(page, email);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Checkout links' })
      .click();
    await page.getByRole('heading', { name: 'New checkout link' }).waitFor();

    // Refused in the page before anything is sent.
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.getByText('Enter an amount from 0.01 to 1,000,000').waitFor();

    await page.getByLabel('Amount', { exact: true }).fill('12.5');
    await page.getByLabel('Currency').selectOption('USDC');
    await page.getByLabel('Link expires after').selectOption('3600');
    await page.getByLabel('Return URL').fill(`${SHOP}/thanks`);
    await page.getByLabel('Cancel URL (optional)').fill(`${SHOP}/cart`);
    await page.getByRole('button', { name: 'Add a pair' }).click();
    await page.getByLabel('Key 1').fill('order_id');
    await page.getByLabel('Value 1').fill('A-17');
    await page.getByRole('button', { name: 'Create link' }).click();
    const card = page.locator('[data-session-id]');
    await card.getByRole('heading', { name: /Checkout for 12\.50 USDC/ }).waitFor();
    const sessionId = (await card.getAttribute('data-session-id'))!;
    const url = (await card.locator('[data-session-url]').innerText()).trim();
    expect(url).to.contain(sessionId);
    await card.getByRole('button', { name: 'Copy checkout link' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(url);
    expect(await card.innerText())
      .to.contain('order_id')
      .and.contain('A-17')
      .and.contain(`${SHOP}/cart`);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'checkout-link-desktop');

    // The twin answers the bearer token with what the API-key route answers.
    const viaTwin = await s.gw.call('GET', `/checkout-sessions/${sessionId}`, { headers: merchant.bearer });
    const viaKey = await s.gw.call('GET', `/checkout/sessions/${sessionId}`, {
      headers: { 'x-api-key': merchant.key },
    });
    expect(viaTwin.body).to.deep.equal(viaKey.body);
    expect(viaTwin.body.data).to.deep.include({ amount: '12.500000', metadata: { order_id: 'A-17' } });
    const life = Date.parse(viaTwin.body.data.expires_at) - Date.parse(viaTwin.body.data.created_at);
    expect(Math.round(life / 1000)).to.equal(3600);
    expect(
      (await s.gw.call('POST', '/checkout-sessions', { headers: { 'x-api-key': merchant.key }, body: {} }))
        .status,
    ).to.be.oneOf([401, 403]);

    await payOnCheckoutPage(url);
    await card.getByText('Paid').waitFor({ timeout: 30_000 });
    await card.getByRole('link', { name: '12.50 USDC' }).click();
    await page.getByRole('heading', { name: /Payment of 12\.50 USDC/ }).waitFor();

    // A link whose amount the customer chooses; the session made before is still listed.
    await page.getByRole('link', { name: 'Checkout links' }).click();
    await page.getByLabel('The customer enters the amount').check();
    await page.getByLabel('Currency').selectOption('EURC');
    await page.getByLabel('Return URL').fill(`${SHOP}/thanks`);
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.getByRole('heading', { name: 'Checkout in EURC, amount chosen by the customer' }).waitFor();
    expect(await page.locator('[data-session-id]').count()).to.equal(2);
    const openId = (await page.locator('[data-session-id]').first().getAttribute('data-session-id'))!;
    const openSession = await s.gw.call('GET', `/checkout-sessions/${openId}`, { headers: merchant.bearer });
    expect(openSession.body.data).to.include({ amount: null, currency: 'EURC', status: 'open' });

    // Every session of the merchant is listed: the paid one links to its payment, the open one's
    // link is copied from its row; the status filter is kept in the URL.
    const list = page.locator('table[data-total="2"]');
    await list.waitFor();
    const paidRow = list.locator(`[data-listed-session="${sessionId}"]`);
    const openRow = list.locator(`[data-listed-session="${openId}"]`);
    expect(await paidRow.innerText())
      .to.contain('12.50 USDC')
      .and.contain('Paid');
    expect(await openRow.innerText())
      .to.contain('Customer chooses (EURC)')
      .and.contain('Open');
    await openRow.getByRole('button', { name: /Copy checkout link made/ }).click();
    const listed = await s.gw.call('GET', '/checkout-sessions?status=open', { headers: merchant.bearer });
    expect(listed.body.data.sessions.map((x: { id: string }) => x.id)).to.deep.equal([openId]);
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(
      listed.body.data.sessions[0].url,
    );
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'checkout-list-desktop');
    await page.getByLabel('Status').selectOption('complete');
    await page.waitForURL(/status=complete/);
    await page.locator('table[data-total="1"]').waitFor();
    expect(await page.locator('[data-listed-session]').count()).to.equal(1);
    await page
      .locator(`[data-listed-session="${sessionId}"]`)
      .getByRole('link', { name: 'View payment' })
      .click();
    await page.getByRole('heading', { name: /Payment of 12\.50 USDC/ }).waitFor();
  });

  it('lists refunds with filters and pages, and cancels a pending one from its detail', async () => {
    const { page } = await open();
    await signIn(page, email);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Refunds' }).click();
    await page.locator('[data-total="3"]').waitFor();
    await page.getByLabel('Status').selectOption('pending');
    await page.getByLabel('Search').fill(paymentId);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/status=pending/);
    await page.locator('[data-total="3"]').waitFor();
    expect(await page.locator('[data-refund-id]').count()).to.equal(3);
    await page.getByText('1–3 of 3').waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'refunds-desktop');

    const target = refundIds[1]!;
    await page.locator(`[data-refund-id="${target}"] a`).click();
    await page.getByRole('heading', { name: /Refund of 3\.00 USDC/ }).waitFor();
    expect(await page.locator('main').innerText())
      .to.contain('Duplicate')
      .and.contain('note 3')
      .and.contain('Payment of 30.00 USDC');
    await page.getByRole('button', { name: 'Cancel refund…' }).click();
    await s.shot(page, 'refund-detail-desktop');
    await page
      .getByRole('group', { name: 'Cancel refund' })
      .getByRole('button', { name: 'Cancel refund' })
      .click();
    await page
      .getByRole('heading', { name: /Refund of 3\.00 USDC/ })
      .getByText('Cancelled')
      .waitFor();
    expect(
      (await s.gw.call('GET', `/refunds/${target}`, { headers: merchant.bearer })).body.data.status,
    ).to.equal('cancelled');

    await page.getByRole('link', { name: 'All refunds' }).click();
    await page.getByLabel('Status').selectOption('cancelled');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator('[data-total="1"]').waitFor();
    expect(await page.locator(`[data-refund-id="${target}"]`).count()).to.equal(1);
  });

  it('works on a phone-sized screen and in German', async () => {
    const { page } = await open({ viewport: PHONE, locale: 'de-DE' });
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('link', { name: 'Erstattungen' }).click();
    await page.locator('[data-refund-id]').first().waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'refunds-phone-de');
    await page.locator(`[data-refund-id="${refundIds[0]}"] a`).click();
    await page.getByRole('heading', { name: /Erstattung über 2,00 USDC/ }).waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'refund-detail-phone-de');
    await page.getByRole('link', { name: 'Bezahllinks' }).click();
    await page.getByRole('heading', { name: 'Neuer Bezahllink' }).waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'checkout-phone-de');
  });
});
