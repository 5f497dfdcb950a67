import { expect } from 'chai';
import { Wallet, formatUnits, getAddress } from 'ethers';
import { qrTagUnits } from '@stablepay/payments';
import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe.js';
import {
  startCheckoutStack,
  SHOP,
  waitFor,
  type CheckoutStack,
  trackedCustomers,
} from './support/checkout-stack.js';

/**
 * The hosted checkout page in headless Chromium against the whole stack on the devnet: a customer
 * opens a session's url, connects an injected wallet (a devnet key, real transactions on anvil) and
 * pays; each test ends with the session as the merchant API reports it and payment.completed
 * published.
 */
describe('hosted checkout page (Chromium, devnet)', function () {
  this.timeout(90_000);
  let s: CheckoutStack;

  before(async () => {
    s = await startCheckoutStack();
  });
  after(async () => s?.close());
  const customer = trackedCustomers(() => s);

  const connectAndChoose = async (page: Page, chain = 'BASE', crossChain = false) => {
    await page.getByLabel('E-mail for your receipt').fill('payer@example.com');
    await page.getByRole('button', { name: 'Connect your wallet' }).click();
    await page.locator(`input[data-chain="${chain}"][data-cross-chain="${crossChain}"]`).check();
  };

  it('pays a USDC session on the merchant chain, with the strict CSP, and returns to the shop', async () => {
    const session = await s.createSession({ amount: '25.00', currency: 'USDC' });
    const res = await fetch(session.url);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp)
      .to.contain("default-src 'none'")
      .and.contain("script-src 'self'")
      .and.contain("frame-ancestors 'none'");
    expect(csp).to.contain(new URL(s.h.stack.gatewayUrl).origin);

    const { page, wallet } = await customer();
    await page.goto(session.url);
    await page.getByRole('heading', { name: 'Pay Shop' }).waitFor();
    expect(await page.locator('[data-amount]').innerText()).to.match(/25\.00\s+USDC/);
    const left = Number(await page.locator('[data-time-left]').getAttribute('data-time-left'));
    expect(left).to.be.within(1700, 1800);
    await connectAndChoose(page);
    // Every chain that holds USDC is offered: BASE directly, ETH and MATIC through CCTP.
    expect(await page.locator('input[name="option"]').count()).to.equal(3);
    await s.shot(page, 'desktop-options');
    await page.locator('[data-pay]').click();
    await page.getByText('Paid. Thank you!').waitFor({ timeout: 60_000 });
    await s.shot(page, 'desktop-paid');
    await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });
    const paid = await s.expectPaid(session.id);
    expect(paid.payment.amount).to.equal('25.000000');
    expect(paid.payment.tx_hash).to.equal(wallet!.sent.at(-1)!.toLowerCase());
    expect(wallet!.calls).to.include.members(['wallet_switchEthereumChain', 'eth_signTypedData_v4']);
  });

  it('pays an EURC session in German, and the payment carries the language for the receipt', async () => {
    const session = await s.createSession({ amount: '9.99', currency: 'EURC' });
    const { page } = await customer();
    await page.goto(session.url);
    await page.getByText('9.99').waitFor();
    await connectAndChoose(page);
    // EURC is same-chain only: no bridged option.
    expect(await page.locator('input[name="option"][data-cross-chain="true"]').count()).to.equal(0);
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('heading', { name: 'An Shop zahlen' }).waitFor();
    await page.locator('[data-pay]').click();
    await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });
    const paid = await s.expectPaid(session.id);
    expect(paid.currency).to.equal('EURC');
    const completed = s.h.events.find(
      (e) => e.type === 'payment.completed' && e.body.data.payment_id === paid.payment.id,
    )!;
    expect(completed.body.data.customer_language).to.equal('de');
  });

  it('lets the customer enter the amount of a session without one', async () => {
    const session = await s.createSession({ currency: 'USDC' });
    const { page } = await customer();
    await page.goto(session.url);
    const amount = page.getByLabel('Amount (USDC)');
    await amount.fill('0.001');
    await connectAndChoose(page);
    await page.locator('[data-pay]').click();
    await page.getByText('Enter an amount between 0.01 and 1,000,000').waitFor();
    await amount.fill('12.345678');
    await page.locator('[data-pay]').click();
    await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });
    const paid = await s.expectPaid(session.id);
    expect(paid.payment.amount).to.equal('12.345678');
  });

  it('says plainly when the customer declines, lacks balance or the wallet stays on another network', async () => {
    const session = await s.createSession({ amount: '5', currency: 'USDC' });
    const { page, wallet } = await customer();
    await page.goto(session.url);
    await connectAndChoose(page);
    wallet!.rejectNext('eth_sendTransaction');
    await page.locator('[data-pay]').click();
    await page.locator('[data-problem="rejected"]').waitFor();
    expect(await page.getByRole('alert').innerText()).to.contain('You declined the request in your wallet');

    wallet!.refuseSwitch = true;
    await page.locator('input[data-chain="ETH"]').check();
    await page.locator('[data-pay]').click();
    // A declined switch is the customer saying no as well; a wallet that cannot switch is told apart.
    await page.locator('[data-problem="rejected"], [data-problem="wrong_network"]').waitFor();
    wallet!.refuseSwitch = false;

    const poor = await customer({ privateKey: Wallet.createRandom().privateKey });
    await poor.page.goto(session.url);
    await connectAndChoose(poor.page);
    await poor.page.getByText('Your wallet does not hold enough USDC on any supported network').waitFor();
    await poor.page.locator('[data-pay]').click();
    await poor.page.locator('[data-problem="balance"]').waitFor();
    expect(await poor.page.getByRole('alert').innerText()).to.contain('less than');
    expect((await s.merchantSession(session.id)).status).to.equal('open');
  });

  it('shows an expired session as expired, with the way back to the shop', async () => {
    const session = await s.createSession({ amount: '3', currency: 'USDC', expires_in: 60 });
    const { page } = await customer({ viewport: { width: 390, height: 844 } });
    await page.goto(session.url);
    await page.getByRole('heading', { name: 'Pay Shop' }).waitFor();
    // Time passes on the server: the session's end is moved to now; the page notices by itself.
    await s.h.query(
      `update payments.checkout_sessions set expires_at = now() - interval '1 second' where id = $1`,
      [session.id],
    );
    await page.getByText('This checkout session has expired').waitFor({ timeout: 15_000 });
    await s.shot(page, 'phone-expired');
    await page.getByRole('link', { name: 'Back to the shop' }).click();
    await page.waitForURL(`${SHOP}/cart`);
    expect((await s.merchantSession(session.id)).status).to.equal('expired');
  });

  it('cancels back to the cancel_url', async () => {
    const session = await s.createSession({ amount: '3', currency: 'USDC' });
    const { page } = await customer();
    await page.goto(session.url);
    await page.getByRole('link', { name: 'Cancel and return to the shop' }).click();
    await page.waitForURL(`${SHOP}/cart`);
    expect((await s.merchantSession(session.id)).status).to.equal('open');
  });

  it('resumes after a reload while the wallet was sending, paying once', async () => {
    const session = await s.createSession({ amount: '4.20', currency: 'USDC' });
    const { page, wallet } = await customer();
    await page.goto(session.url);
    await connectAndChoose(page);
    let reloaded = false;
    wallet!.afterSend = async () => {
      wallet!.afterSend = undefined;
      reloaded = true;
      // The page goes away before it learns the transaction's hash.
      void page.reload();
    };
    await page.locator('[data-pay]').click();
    await waitFor(() => reloaded, 'the reload');
    await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });
    const paid = await s.expectPaid(session.id);
    expect(wallet!.sent).to.have.length(1);
    expect(paid.payment.tx_hash).to.equal(wallet!.sent[0]!.toLowerCase());
  });

  it("refuses a stranger who front-runs the customer's transfer into a session of their own", async () => {
    const victimSession = await s.createSession({ amount: '11', currency: 'USDC' });
    const attackerSession = await s.createSession({ amount: '11', currency: 'USDC' });
    const attacker = Wallet.createRandom();
    const { page, wallet } = await customer();
    await page.goto(victimSession.url);
    await connectAndChoose(page);
    const attempts: Array<{ status: number; code?: string }> = [];
    wallet!.afterSend = async (hash) => {
      wallet!.afterSend = undefined;
      // The stranger sees the transfer on-chain before the page reports it.
      const base = {
        merchantId: s.shop.merchantId,
        txHash: hash,
        amount: '11',
        expectedAmount: '11',
        token: 'USDC',
        chainId: s.chain('BASE').chainId,
        fromAddress: wallet!.address,
        toAddress: s.shop.wallet.address,
        customerEmail: 'stranger@example.com',
      };
      const forged = await attacker.signTypedData(
        { name: 'Stablepay Checkout', version: '1', chainId: base.chainId },
        {
          CheckoutPayment: [
            { name: 'sessionId', type: 'string' },
            { name: 'merchantId', type: 'string' },
            { name: 'payer', type: 'address' },
            { name: 'recipient', type: 'address' },
            { name: 'token', type: 'string' },
            { name: 'amount', type: 'uint256' },
            { name: 'sourceChainId', type: 'uint256' },
          ],
        },
        {
          sessionId: attackerSession.id,
          merchantId: base.merchantId,
          payer: base.fromAddress,
          recipient: base.toAddress,
          token: 'USDC',
          amount: 11_000_000n,
          sourceChainId: base.chainId,
        },
      );
      for (const body of [
        { ...base, sessionId: attackerSession.id },
        { ...base, sessionId: attackerSession.id, sessionProof: forged },
        { ...base, sessionId: attackerSession.id, expectedAmount: '11.000001' },
        // Last, with no session at all: recorded, but it does not keep the customer's session unpaid.
        base,
      ]) {
        const r = await s.h.gw.call('POST', '/payments/create-public', { body });
        attempts.push({ status: r.status, code: r.body.details?.[0]?.code });
      }
    };
    await page.locator('[data-pay]').click();
    await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });
    expect(attempts).to.deep.equal([
      { status: 400, code: 'session_proof_required' },
      { status: 400, code: 'session_proof_invalid' },
      { status: 400, code: 'session_proof_required' },
      { status: 201, code: undefined },
    ]);
    const paid = await s.expectPaid(victimSession.id);
    expect(paid.payment.tx_hash).to.equal(wallet!.sent.at(-1)!.toLowerCase());
    expect((await s.merchantSession(attackerSession.id)).status).to.equal('open');
  });

  it('without a wallet, shows the EIP-681 code and completes on a transfer sent elsewhere', async () => {
    const session = await s.createSession({ amount: '6.50', currency: 'USDC' });
    const { page } = await customer({ wallet: false, viewport: { width: 390, height: 844 } });
    await page.goto(session.url);
    await page.getByText('No browser wallet found').waitFor();
    await page.getByLabel('E-mail for your receipt').fill('qr@example.com');
    await page.getByRole('button', { name: 'Show the payment code' }).click();
    const base = s.chain('BASE');
    // The transfer carries the session's QR tag in its last digits: how the service knows it is this
    // session's without the payer's signature.
    const units = 6_500_000n + qrTagUnits(session.id);
    const uri = await page.locator('svg.qr').getAttribute('data-qr');
    // Addresses checksummed (EIP-55), as wallets show them.
    const merchant = getAddress(s.shop.wallet.address);
    expect(uri).to.equal(
      `ethereum:${getAddress(base.tokens.USDC!)}@${base.chainId}/transfer?address=${merchant}&uint256=${units}`,
    );
    expect(await page.locator('[data-qr-address]').innerText()).to.equal(merchant);
    await s.shot(page, 'phone-qr');
    expect(await seriousViolations(page)).to.deep.equal([]);
    const payer = s.nextCustomer();
    // First a transfer of the plain amount (someone else's): the page must not take it.
    await s.transfer(s.nextCustomer().privateKey, 'USDC', '6.5');
    const hash = await s.transfer(payer.privateKey, 'USDC', formatUnits(units, 6));
    await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });
    const paid = await s.expectPaid(session.id);
    expect(paid.payment.tx_hash).to.equal(hash.toLowerCase());
  });

  it('passes axe-core without serious violations, is translated, and reads at desktop and phone sizes', async () => {
    const session = await s.createSession({ amount: '1234.5', currency: 'USDC' });
    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const { page } = await customer({ viewport });
      await page.goto(session.url);
      await page.getByRole('heading', { name: 'Pay Shop' }).waitFor();
      expect(await seriousViolations(page), `${name} before connecting`).to.deep.equal([]);
      await connectAndChoose(page);
      expect(await seriousViolations(page), `${name} with options`).to.deep.equal([]);
      await s.shot(page, `${name}-open`);
    }
    const { page } = await customer();
    await page.goto(`${session.url}&lang=de`);
    await page.getByRole('heading', { name: 'An Shop zahlen' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).to.equal('de');
    for (const [lang, text] of [
      ['fr', 'Payer Shop'],
      ['es', 'Pagar a Shop'],
    ]) {
      await page.getByLabel('Sprache').or(page.getByLabel('Langue')).selectOption(lang);
      await page.getByRole('heading', { name: text }).waitFor();
    }
  });
});
