import { expect } from 'chai';
import { confirmEmailFromMail } from '@stablepay/stack';
import {
  DESKTOP,
  PASSWORD,
  PHONE,
  merchantWallet,
  overflows,
  seriousViolations,
  signIn,
  startDashboardStack,
  waitFor,
  type DashboardStack,
  type Tab,
} from './support/dashboard-stack.js';

/** 250 characters, within the 255 the e-mail specification allows: 64 before the @, labels of at most 63. */
const longEmail = (prefix: string) => {
  const local = `${prefix}-${Date.now()}-`.padEnd(64, 'l');
  return `${local}@${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(250 - 64 - 1 - 63 - 1 - 63 - 1 - 4)}.com`;
};
const LONG_NAME = `Shop${'W'.repeat(96)}`;
const LONG_REFERENCE = `order-${'9'.repeat(249)}`;
const LONG_META = 'm'.repeat(500);

/**
 * Values as long as the API lets them be (a 250-character e-mail as the merchant's and as a payer's,
 * a 255-character reference, a 100-character business name without a space, 500-character
 * metadata) never push a screen wider than the window, on a desktop or a phone: a list shortens
 * them with the whole value in the title, the detail shows them whole.
 */
describe('dashboard: long values keep every layout (Chromium, devnet)', function () {
  this.timeout(120_000);
  let s: DashboardStack;
  const email = longEmail('owner');
  const payer = longEmail('payer');
  let paymentId: string;
  const tabs: Tab[] = [];

  before(async () => {
    s = await startDashboardStack();
    const r = await s.gw.call('POST', '/auth/register', {
      body: { email, password: PASSWORD, merchantName: LONG_NAME, blockchain: 'BASE' },
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    await confirmEmailFromMail(s.gw.url, s.gw.mailDir, email);
    const bearer = await s.signInApi(email);
    const me = (await s.gw.call('GET', '/auth/me', { headers: bearer })).body.data;
    const wallet = await merchantWallet(s.gw, me.merchant.id);
    const paid = await s.pay({
      merchantId: me.merchant.id,
      to: wallet.address,
      amount: '1234.5',
      email: payer,
      reference: LONG_REFERENCE,
    });
    paymentId = paid.paymentId;
    await waitFor(async () => {
      const p = await s.gw.call('GET', `/payments/${paymentId}`, { headers: bearer });
      return p.body.data?.status === 'completed' || undefined;
    }, 'payment completed');
    const session = await s.gw.call('POST', '/checkout-sessions', {
      headers: bearer,
      body: {
        amount: '5',
        currency: 'USDC',
        return_url: `https://shop.example/${'r'.repeat(300)}`,
        metadata: { cart: LONG_META, note: LONG_META },
      },
    });
    expect(session.status, JSON.stringify(session.body)).to.equal(201);
  });
  after(async () => s?.close());
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await s.closeTab(tab);
  });

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)
    it(`shortens long values in lists and shows them whole in the detail (${size})`, async () => {
      const tab = await s.open({ viewport });
      tabs.push(tab);
      const { page } = tab;
      await signIn(page, email);
      expect(await overflows(page), 'home').to.deep.equal([]);
      await s.shot(page, `long-values-home-${size}`);

      await page.goto(`${s.stack.dashboardUrl}#/payments`);
      const row = page.locator(`[data-payment-id="${paymentId}"]`);
      await row.waitFor();
      expect(await row.locator(`[title="${payer}"]`).count()).to.equal(1);
      expect(await row.locator(`[title="${LONG_REFERENCE}"]`).count()).to.equal(1);
      expect(await overflows(page), 'payments').to.deep.equal([]);
      expect(await seriousViolations(page)).to.deep.equal([]);
      await s.shot(page, `long-values-payments-${size}`);

      await page.goto(`${s.stack.dashboardUrl}#/payments/${paymentId}`);
      await page.getByRole('heading', { name: /Payment of 1,234\.50 USDC/ }).waitFor();
      const details = await page.locator('dl.details').first().innerText();
      expect(details).to.contain(payer).and.contain(LONG_REFERENCE);
      expect(await overflows(page), 'payment detail').to.deep.equal([]);
      expect(await seriousViolations(page)).to.deep.equal([]);
      await s.shot(page, `long-values-payment-${size}`);

      await page.goto(`${s.stack.dashboardUrl}#/checkout`);
      await page.locator(`[title^="cart: ${LONG_META}"]`).waitFor();
      expect(await overflows(page), 'checkout links').to.deep.equal([]);
      expect(await seriousViolations(page)).to.deep.equal([]);
      await s.shot(page, `long-values-checkout-${size}`);
    });
});
