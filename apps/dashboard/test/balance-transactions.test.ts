import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { Interface, JsonRpcProvider, Wallet, toBeHex } from 'ethers';
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

const erc20 = new Interface(['function transfer(address to, uint256 value) returns (bool)']);

/** The CSV export's rows as objects keyed by its header (no quoted commas in these fields). */
const parseCsv = (text: string): Array<Record<string, string>> => {
  const [header, ...lines] = text.trim().split(/\r\n/);
  const names = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i]!, v])));
};

/**
 * The balance transactions screen and the reconciliation banner against the whole stack on the
 * devnet: a payment in and a refund out are listed with their signed amounts, balances and links,
 * filtered by type and downloaded as the gateway's CSV; then 1 USDC leaves the wallet behind the
 * service's back and the banner names the wallet with both balances, while a merchant whose wallet
 * agrees sees none.
 */
describe('dashboard: balance transactions and reconciliation (Chromium, devnet)', function () {
  this.timeout(150_000);
  let s: DashboardStack;
  let shop: Awaited<ReturnType<typeof registerMerchant>>;
  let calmShop: Awaited<ReturnType<typeof registerMerchant>>;
  const email = `ledger-${Date.now()}@example.com`;
  const calm = `ledger-calm-${Date.now()}@example.com`;
  const tabs: Tab[] = [];
  let paymentId: string;
  let paymentTx: string;
  let refundId: string;

  const open = async (opts?: Parameters<DashboardStack['open']>[0]) => {
    const tab = await s.open(opts);
    tabs.push(tab);
    return tab;
  };
  const reconciliation = async (bearer: Record<string, string>) =>
    (await s.gw.call('GET', '/reconciliation/latest', { headers: bearer })).body.data as {
      checked_at: string | null;
      discrepancies: number;
      wallets: Array<{ address: string; token: string; status: string }>;
    };

  before(async () => {
    s = await startDashboardStack({ REFUND_HOLD_SECONDS: '0', RECONCILE_INTERVAL_MS: '1000' });
    shop = await registerMerchant(s.gw, email);
    calmShop = await registerMerchant(s.gw, calm);
    const paid = await s.pay({ merchantId: shop.merchantId, to: shop.wallet.address, amount: '50' });
    paymentId = paid.paymentId;
    paymentTx = paid.txHash;
    await waitFor(async () => {
      const r = await s.gw.call('GET', `/payments/${paymentId}`, { headers: shop.bearer });
      return r.body.data?.status === 'completed';
    }, 'payment completed');
    // The refunds service learns of the payment from its event: asked before, it answers 404.
    refundId = await waitFor(async () => {
      const r = await s.gw.call('POST', '/refunds', {
        headers: shop.bearer,
        body: { paymentId, amount: '12.5', reason: 'requested_by_customer' },
      });
      return r.status === 201 ? (r.body.data.id as string) : undefined;
    }, 'refund accepted');
    await waitFor(
      async () =>
        (await s.gw.call('GET', `/refunds/${refundId}`, { headers: shop.bearer })).body.data.status ===
        'completed',
      60_000,
      'refund completed',
    );
    await waitFor(async () => {
      const r = await s.gw.call('GET', '/balance-transactions?type=refund', { headers: shop.bearer });
      return r.body.data?.total === 1;
    }, 'refund in the ledger');
  });
  after(async () => s?.close());
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await s.closeTab(tab);
  });

  it('lists the payment and the refund with signed amounts and balances, filters by type and dates and downloads the CSV', async () => {
    const { page } = await open();
    await signIn(page, email);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Balance transactions' })
      .click();
    await page.getByRole('heading', { name: 'Balance transactions', level: 1 }).waitFor();
    const rows = page.locator('tr[data-balance-transaction]');
    await rows.nth(1).waitFor();
    expect(await rows.count()).to.equal(2);

    // Newest first: the refund, then the payment.
    const refund = rows.nth(0);
    const payment = rows.nth(1);
    expect(await refund.getAttribute('data-balance-transaction')).to.equal('refund');
    expect(await refund.locator('td').nth(1).innerText()).to.equal('Refund');
    expect(await refund.locator('[data-amount]').innerText()).to.equal('\u221212.50 USDC');
    expect(await refund.locator('[data-balance-after]').innerText()).to.equal('37.50 USDC');
    expect(await refund.getByRole('link', { name: 'Refund' }).getAttribute('href')).to.equal(
      `#/refunds/${refundId}`,
    );
    expect(await refund.locator('[data-value]').getAttribute('data-value')).to.match(/^0x[0-9a-f]{64}$/);

    expect(await payment.locator('td').nth(1).innerText()).to.equal('Payment received');
    expect(await payment.locator('[data-amount]').innerText()).to.equal('+50.00 USDC');
    expect(await payment.locator('[data-balance-after]').innerText()).to.equal('50.00 USDC');
    expect(await payment.locator('[data-value]').getAttribute('data-value')).to.equal(paymentTx);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'balance-transactions-desktop');

    // The payment's link leads to the payment.
    await payment.getByRole('link', { name: 'Payment' }).click();
    await page.getByText(paymentId).waitFor();
    await page.goBack();
    await rows.nth(1).waitFor();

    await page.getByLabel('Type').selectOption('refund');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/type=refund/);
    await waitFor(async () => (await rows.count()) === 1, 10_000, 'filtered to refunds');
    expect(await rows.first().getAttribute('data-balance-transaction')).to.equal('refund');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).to.match(/^balance-transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    const filtered = parseCsv(readFileSync((await download.path())!, 'utf8'));
    expect(filtered).to.have.length(1);
    expect(filtered[0]).to.include({
      type: 'refund',
      amount: '-12.500000',
      currency: 'USDC',
      balance_after: '37.500000',
      refund_id: refundId,
    });

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await waitFor(async () => (await rows.count()) === 2, 10_000, 'filters cleared');
    const [all] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const everything = parseCsv(readFileSync((await all.path())!, 'utf8'));
    expect(everything.map((r) => [r.type, r.amount, r.balance_after, r.tx_hash])).to.deep.equal([
      ['refund', '-12.500000', '37.500000', filtered[0]!.tx_hash],
      ['payment', '50.000000', '50.000000', paymentTx],
    ]);
    expect(everything[1]).to.include({ payment_id: paymentId });

    // Dates: nothing from tomorrow on; both rows within today (bare dates are whole UTC days).
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('From').fill(tomorrow);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No balance transactions match.').waitFor();
    await page.getByLabel('From').fill(today);
    await page.getByLabel('To').fill(today);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(new RegExp(`endDate=${today}`));
    await waitFor(async () => (await rows.count()) === 2, 10_000, 'rows of today');
  });

  it('shows the screen on a phone and in German', async () => {
    const { page } = await open({ viewport: PHONE, locale: 'de-DE' });
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('link', { name: 'Kontobewegungen' }).click();
    const rows = page.locator('tr[data-balance-transaction]');
    await rows.nth(1).waitFor();
    expect(await rows.nth(0).innerText())
      .to.contain('Erstattung')
      .and.contain('\u221212,50 USDC')
      .and.contain('37,50 USDC');
    expect(await rows.nth(1).innerText())
      .to.contain('Zahlung eingegangen')
      .and.contain('+50,00 USDC');
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'balance-transactions-phone-de');
  });

  it('shows the banner when money leaves the wallet behind the service, and none to a merchant whose wallet agrees', async () => {
    const base = s.chain('BASE');
    const provider = new JsonRpcProvider(base.rpcUrl, base.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    const wallet = shop.wallet.address;
    try {
      // Someone holding the wallet's key (anvil impersonates it) moves 1 USDC out.
      await provider.send('anvil_impersonateAccount', [wallet]);
      await provider.send('anvil_setBalance', [wallet, toBeHex(10n ** 18n)]);
      const leak = (await provider.send('eth_sendTransaction', [
        {
          from: wallet,
          to: base.tokens.USDC!,
          data: erc20.encodeFunctionData('transfer', [Wallet.createRandom().address, 1_000_000n]),
        },
      ])) as string;
      await waitFor(() => provider.getTransactionReceipt(leak), 'leak mined');
      await provider.send('anvil_stopImpersonatingAccount', [wallet]);
    } finally {
      provider.destroy();
    }
    await waitFor(
      async () => (await reconciliation(shop.bearer)).discrepancies === 1,
      30_000,
      'discrepancy found',
    );

    for (const viewport of [undefined, PHONE]) {
      const { page } = await open(viewport ? { viewport } : undefined);
      await signIn(page, email);
      const banner = page.getByRole('alert').filter({ hasText: 'Your wallet holds a different amount' });
      await banner.waitFor();
      expect(await banner.innerText())
        .to.contain(wallet)
        .and.contain('holds 36.50 USDC')
        .and.contain('add up to 37.50 USDC');
      // On every screen, the balance transactions too.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Balance transactions' })
        .click();
      await page.locator('tr[data-balance-transaction]').nth(1).waitFor();
      await banner.waitFor();
      expect(await seriousViolations(page)).to.deep.equal([]);
      await s.shot(page, viewport ? 'reconciliation-banner-phone' : 'reconciliation-banner-desktop');
    }

    // The neighbour's wallet was compared and agrees: no banner.
    await waitFor(async () => {
      const r = await reconciliation(calmShop.bearer);
      return r.checked_at !== null && r.wallets.length > 0;
    }, 'neighbour compared');
    expect((await reconciliation(calmShop.bearer)).discrepancies).to.equal(0);
    const { page } = await open();
    const answered = page.waitForResponse((r) => r.url().endsWith('/reconciliation/latest') && r.ok());
    await signIn(page, calm);
    await answered;
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(await page.locator('.reconciliation-banner').count()).to.equal(0);
  });
});
