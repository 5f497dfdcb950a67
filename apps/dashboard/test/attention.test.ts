import { expect } from 'chai';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { deployerAccount, fiatTokenAbi } from '@stablepay/devnet';
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

/**
 * The home screen's "needs attention" panel against the whole stack on the devnet: a disabled
 * webhook endpoint, a refund that failed on-chain (the issuer blacklisted the payer), and a refund
 * waiting for funds after a withdrawal emptied the wallet; a merchant with nothing to do is told so.
 */
describe('dashboard: what needs attention (Chromium, devnet)', function () {
  this.timeout(120_000);
  let s: DashboardStack;
  let merchant: Awaited<ReturnType<typeof registerMerchant>>;
  const email = `attention-${Date.now()}@example.com`;
  const calm = `calm-${Date.now()}@example.com`;
  const tabs: Tab[] = [];
  let endpointId: string;
  let failedRefund: string;
  let waitingRefund: string;

  const completed = (paymentId: string) =>
    waitFor(async () => {
      const r = await s.gw.call('GET', `/payments/${paymentId}`, { headers: merchant.bearer });
      return r.body.data?.status === 'completed';
    }, 'payment completed');
  const refund = (paymentId: string, amount: string) =>
    waitFor(async () => {
      const r = await s.gw.call('POST', '/refunds', {
        headers: merchant.bearer,
        body: { paymentId, amount, reason: 'requested_by_customer' },
      });
      return r.status === 201 ? (r.body.data.id as string) : undefined;
    }, 'refund accepted');
  const refundDetail = async (id: string) =>
    (await s.gw.call('GET', `/refunds/${id}`, { headers: merchant.bearer })).body.data;

  before(async () => {
    s = await startDashboardStack({ REFUND_HOLD_SECONDS: '0' });
    merchant = await registerMerchant(s.gw, email);
    await registerMerchant(s.gw, calm);
    const kept = await s.pay({ merchantId: merchant.merchantId, to: merchant.wallet.address, amount: '10' });
    const blocked = await s.pay({
      merchantId: merchant.merchantId,
      to: merchant.wallet.address,
      amount: '6',
    });
    await completed(kept.paymentId);
    await completed(blocked.paymentId);

    const hook = await s.gw.call('POST', '/merchant-webhooks', {
      headers: merchant.bearer,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['payment.completed'] },
    });
    endpointId = hook.body.data.id;
    await s.gw.call('PUT', `/merchant-webhooks/${endpointId}`, {
      headers: merchant.bearer,
      body: { is_active: false },
    });

    // The issuer blacklists the second payer: the refund to it fails for good.
    const base = s.chain('BASE');
    const provider = new JsonRpcProvider(base.rpcUrl, base.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    try {
      const issuer = new Contract(
        base.tokens.USDC!,
        fiatTokenAbi(),
        new Wallet(deployerAccount().privateKey, provider),
      );
      await (await issuer.getFunction('blacklist')(blocked.from)).wait();
    } finally {
      provider.destroy();
    }
    failedRefund = await refund(blocked.paymentId, '6');
    await waitFor(
      async () => (await refundDetail(failedRefund)).status === 'failed',
      30_000,
      'refund failed',
    );

    // Everything withdrawn: a refund then waits for the wallet to hold enough again.
    const destination = Wallet.createRandom().address;
    const approved = await s.gw.call('POST', '/withdrawal-addresses', {
      headers: merchant.bearer,
      body: { address: destination, label: 'Savings' },
    });
    expect(approved.status, JSON.stringify(approved.body)).to.equal(201);
    const withdrawal = await s.gw.call('POST', '/withdrawals', {
      headers: merchant.bearer,
      body: { currency: 'USDC', destination_address: destination },
    });
    expect(withdrawal.status, JSON.stringify(withdrawal.body)).to.equal(201);
    await waitFor(
      async () => {
        const w = await s.gw.call('GET', `/withdrawals/${withdrawal.body.data.id}`, {
          headers: merchant.bearer,
        });
        return w.body.data.status === 'completed';
      },
      60_000,
      'withdrawal completed',
    );
    waitingRefund = await refund(kept.paymentId, '5');
    await waitFor(
      async () => (await refundDetail(waitingRefund)).waiting_for_funds === true,
      30_000,
      'waiting',
    );
  });
  after(async () => s?.close());
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await s.closeTab(tab);
  });

  it('lists a disabled endpoint, a failed refund and a refund waiting for funds, each with its link', async () => {
    const tab = await s.open();
    tabs.push(tab);
    const { page } = tab;
    await signIn(page, email);
    const panel = page.getByRole('region', { name: 'Needs your attention' });
    await panel.locator('[data-attention]').first().waitFor();
    const kinds = await panel
      .locator('[data-attention]')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-attention')));
    expect(kinds).to.deep.equal(['webhook-disabled', 'refund-failed', 'refund-waiting']);
    const text = await panel.innerText();
    expect(text)
      .to.contain('The webhook endpoint http://127.0.0.1:9/hooks is disabled')
      .and.contain('A refund of 6.00 USDC failed.')
      .and.contain('A refund of 5.00 USDC is waiting: your wallet holds too little USDC.');
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'home-attention-desktop');

    await panel.getByRole('link', { name: 'Fix and enable it' }).click();
    await page.getByText('Disabled: no events are sent to this endpoint.').waitFor();
    expect(page.url()).to.contain(`#/developers/webhooks/${endpointId}`);
    await page.goBack();
    await panel.locator('[data-attention="refund-waiting"]').getByRole('link').click();
    await page.getByRole('heading', { name: /Refund of 5\.00 USDC/ }).waitFor();
    await page.getByText('Waiting for funds').waitFor();
    await page.goBack();
    await panel.locator('[data-attention="refund-failed"]').getByRole('link').click();
    await page.getByText(/The refund failed: .*blacklist/).waitFor();
  });

  it('tells a merchant with nothing to do so, on a phone and in German', async () => {
    const tab = await s.open({ viewport: PHONE, locale: 'de-DE' });
    tabs.push(tab);
    const { page } = tab;
    await page.getByLabel('E-Mail').fill(calm);
    await page.getByLabel('Passwort').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.locator('[data-attention-empty]').waitFor();
    expect(await page.locator('[data-attention-empty]').innerText()).to.equal(
      'Nichts braucht Ihre Aufmerksamkeit.',
    );
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'home-calm-phone-de');
  });
});
