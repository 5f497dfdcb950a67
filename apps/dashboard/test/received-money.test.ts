import { expect } from 'chai';
import { Contract, JsonRpcProvider, Wallet, parseUnits } from 'ethers';
import { fiatTokenAbi } from '@stablepay/devnet';
import {
  registerMerchant,
  seriousViolations,
  signIn,
  startDashboardStack,
  waitFor,
  type DashboardStack,
  type Tab,
} from './support/dashboard-stack.js';

/**
 * What arrived, on the payment screen: an overpayment shows its surplus; an underpaid payment shows
 * what arrived and can give exactly that back to its sender.
 */
describe('dashboard: received money and refunds of it (Chromium, devnet)', function () {
  this.timeout(120_000);
  let s: DashboardStack;
  let merchant: Awaited<ReturnType<typeof registerMerchant>>;
  const email = `received-${Date.now()}@example.com`;
  const tabs: Tab[] = [];

  /** A transfer of `sent` from a devnet customer, reported as a payment of `amount`. */
  const pay = async (sent: string, amount: string) => {
    const c = s.chain('BASE');
    const provider = new JsonRpcProvider(c.rpcUrl, c.chainId, { staticNetwork: true, cacheTimeout: -1 });
    try {
      const customer = s.stack.devnet.customers[1]!;
      const token = new Contract(c.tokens.USDC!, fiatTokenAbi(), new Wallet(customer.privateKey, provider));
      const tx = await token.getFunction('transfer')(merchant.wallet.address, parseUnits(sent, 6));
      await tx.wait();
      const r = await s.gw.call('POST', '/payments/create-public', {
        body: {
          merchantId: merchant.merchantId,
          txHash: tx.hash,
          amount,
          expectedAmount: sent,
          token: 'USDC',
          chainId: c.chainId,
          fromAddress: customer.address,
          toAddress: merchant.wallet.address,
          customerEmail: 'payer@example.com',
        },
      });
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      const id = r.body.data.paymentId as string;
      await waitFor(async () => {
        const d = await s.gw.call('GET', `/payments/${id}`, { headers: merchant.bearer });
        return ['completed', 'failed'].includes(d.body.data?.status) ? true : undefined;
      }, `payment ${id} to finish`);
      return { id, from: customer.address };
    } finally {
      provider.destroy();
    }
  };

  before(async () => {
    s = await startDashboardStack({ REFUND_HOLD_SECONDS: '3600' });
    merchant = await registerMerchant(s.gw, email);
  });
  after(async () => s?.close());
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await s.closeTab(tab);
  });

  const open = async () => {
    const tab = await s.open();
    tabs.push(tab);
    await signIn(tab.page, email);
    return tab;
  };

  it('shows the surplus of an overpayment', async () => {
    const { id } = await pay('5.5', '5');
    const { page } = await open();
    await page.evaluate((pid) => (window.location.hash = `#/payments/${pid}`), id);
    const details = page.locator('dl.details');
    await details.getByText('Received beyond the amount').waitFor();
    expect(await details.innerText())
      .to.contain('5.50 USDC')
      .and.contain('0.50 USDC');
    // The refund form suggests the payment's amount; the surplus stays refundable after it.
    expect(await page.locator('#refund-amount').getAttribute('placeholder')).to.equal('5.00');
    expect(await page.locator('#refund-amount-hint').innerText()).to.equal(
      'Leave empty to refund the payment amount, 5.00 USDC. At most 5.50 USDC arrived and can be refunded.',
    );
    await s.shot(page, 'payment-overpaid-desktop');
  });

  it('offers to give back what arrived of an underpaid payment, and gives back exactly that', async () => {
    const { id, from } = await pay('0.02', '5');
    const { page } = await open();
    await page.evaluate((pid) => (window.location.hash = `#/payments/${pid}`), id);
    const details = page.locator('dl.details');
    await details.getByText('Received amount').waitFor();
    expect(await details.innerText())
      .to.contain('0.02 USDC')
      .and.contain('Underpaid');
    expect(await page.locator('#refund-amount').getAttribute('placeholder')).to.equal('0.02');
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'payment-underpaid-desktop');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    const confirm = page.getByRole('group', { name: 'Confirm the refund' });
    expect((await confirm.locator('[data-confirm-destination]').innerText()).toLowerCase()).to.equal(
      from.toLowerCase(),
    );
    await confirm.getByRole('button', { name: 'Send refund' }).click();
    await page.locator('[data-refund-id]').first().waitFor({ timeout: 30_000 });
    const refunds = await s.gw.call('GET', `/refunds/api/list?search=${id}`, {
      headers: { 'x-api-key': merchant.key },
    });
    expect(refunds.body.data.refunds).to.have.length(1);
    expect(refunds.body.data.refunds[0]).to.include({ amount: '0.020000', payment_id: id });
    expect(refunds.body.data.refunds[0].destination_address.toLowerCase()).to.equal(from.toLowerCase());
    // Nothing more is left to give back: the form is gone.
    await page.locator('#refund-amount').waitFor({ state: 'detached' });
    await s.shot(page, 'payment-underpaid-refunded-desktop');
  });
});
