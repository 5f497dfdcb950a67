import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { Interface, JsonRpcProvider, Wallet, parseUnits, type TransactionRequest } from 'ethers';
import type { Page } from 'playwright-core';
import { fiatTokenAbi } from '@stablepay/devnet';
import { checkoutPaymentTypedData } from '../src/pay/proof.js';
import {
  startCheckoutStack,
  SHOP,
  waitFor,
  type CheckoutStack,
  trackedCustomers,
} from './support/checkout-stack.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core run inside the page (through the devtools protocol, which the page's CSP does not govern). */
const seriousViolations = async (page: Page) => {
  const result = (await page.evaluate(`${axeSource}
    axe.run(document, { resultTypes: ['violations'] })`)) as {
    violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
};

const token = new Interface(fiatTokenAbi());
/** How the page shortens an address, kept on one line by word joiners. */
const short = (a: string) => `${a.slice(0, 6)}\u2060…\u2060${a.slice(-4)}`;

/**
 * The top-up view of the hosted checkout page in headless Chromium against the whole stack on the
 * devnet: a session payment that arrived short waits for the rest, and the page asks the paying
 * wallet for exactly what is missing.
 */
describe('hosted checkout page: top-up of an underpaid session (Chromium, devnet)', function () {
  this.timeout(120_000);
  let s: CheckoutStack;
  let rpc: JsonRpcProvider;

  before(async () => {
    s = await startCheckoutStack();
    const base = s.chain('BASE');
    rpc = new JsonRpcProvider(base.rpcUrl, base.chainId, { staticNetwork: true, cacheTimeout: -1 });
  });
  after(async () => {
    rpc?.destroy();
    await s?.close();
  });
  const customer = trackedCustomers(() => s);

  const publicView = async (id: string) =>
    (await s.h.gw.call('GET', `/checkout/sessions/${id}/public`)).body.data;

  const awaitingTopUp = (id: string) =>
    waitFor(
      async () => {
        const v = await publicView(id);
        return v.payment?.amount_due ? v : undefined;
      },
      'the payment to await a top-up',
      60_000,
    );

  /** The USDC Transfer logs of a mined transaction, as [from, to, amount in base units]. */
  const transfersOf = async (hash: string) => {
    const receipt = await rpc.waitForTransaction(hash);
    return receipt!.logs
      .filter((l) => l.address.toLowerCase() === s.chain('BASE').tokens.USDC!.toLowerCase())
      .map((l) => token.parseLog(l)!)
      .filter((e) => e.name === 'Transfer')
      .map((e) => [String(e.args[0]).toLowerCase(), String(e.args[1]).toLowerCase(), e.args[2] as bigint]);
  };

  /**
   * A payment of the 5.00 USDC session reported with a valid proof, as the page records it, for a
   * transfer of only 3 USDC: what a customer whose wallet sent less ends up with.
   */
  const payShort = async (sessionId: string, payerKey: string) => {
    const payer = new Wallet(payerKey);
    const base = s.chain('BASE');
    const txHash = await s.transfer(payerKey, 'USDC', '3');
    const typed = checkoutPaymentTypedData({
      sessionId,
      merchantId: s.shop.merchantId,
      payer: payer.address.toLowerCase(),
      recipient: s.shop.wallet.address.toLowerCase(),
      token: 'USDC',
      amount: parseUnits('5', 6),
      sourceChainId: base.chainId,
    });
    const { EIP712Domain: _domain, ...types } = typed.types;
    const sessionProof = await payer.signTypedData(typed.domain, types, typed.message);
    const r = await s.h.gw.call('POST', '/payments/create-public', {
      body: {
        merchantId: s.shop.merchantId,
        sessionId,
        sessionProof,
        txHash,
        amount: '5.000000',
        expectedAmount: '5.000000',
        token: 'USDC',
        chainId: base.chainId,
        fromAddress: payer.address.toLowerCase(),
        toAddress: s.shop.wallet.address.toLowerCase(),
        customerEmail: 'payer@example.com',
      },
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return { txHash: txHash.toLowerCase(), paymentId: r.body.data.paymentId as string };
  };

  const topUpView = (page: Page) => page.locator('[data-state="top-up"]');

  const expectShortfallShown = async (page: Page, payer: string) => {
    const notice = page.locator('[data-amount-due]');
    expect(await notice.getAttribute('data-amount-due')).to.equal('2.000000');
    const text = await notice.innerText();
    expect(text).to.contain('Received 3.00 of 5.00 USDC.');
    expect(text).to.contain('Send the missing 2.00 USDC from the same wallet');
    expect(text.toLowerCase()).to.contain(short(payer.toLowerCase()));
  };

  it('asks the paying wallet for exactly the missing 2.00 of 5.00 USDC and returns to the shop once it arrives', async () => {
    const session = await s.createSession({ amount: '5.00', currency: 'USDC' });
    const payer = s.nextCustomer();
    const { page, wallet } = await customer({ privateKey: payer.privateKey });
    await page.goto(session.url);
    await page.getByLabel('E-mail for your receipt').fill('payer@example.com');
    await page.getByRole('button', { name: 'Connect your wallet' }).click();
    await page.locator('input[data-chain="BASE"][data-cross-chain="false"]').check();

    // The customer lowers the amount to 3 USDC in the wallet's confirmation: the page asked for 5,
    // reports the payment as the session's with its proof, and the chain says 3 arrived.
    const transfer = token.getFunction('transfer')!;
    wallet!.alterSend = (tx: TransactionRequest) => {
      wallet!.alterSend = undefined;
      const [to, amount] = token.decodeFunctionData(transfer, tx.data as string);
      expect(amount).to.equal(parseUnits('5', 6));
      return { ...tx, data: token.encodeFunctionData(transfer, [to, parseUnits('3', 6)]) };
    };
    await page.locator('[data-pay]').click();
    await topUpView(page).waitFor({ timeout: 60_000 });
    expect(wallet!.sent).to.have.length(1);
    const first = wallet!.sent[0]!.toLowerCase();
    expect(await transfersOf(first)).to.deep.equal([
      [payer.address.toLowerCase(), s.shop.wallet.address.toLowerCase(), parseUnits('3', 6)],
    ]);

    const waiting = await awaitingTopUp(session.id);
    expect(waiting.status).to.equal('open');
    expect(waiting.payment).to.include({
      status: 'pending',
      received_amount: '3.000000',
      amount_due: '2.000000',
      top_up_pending: false,
    });
    expect(waiting.payment.from_address.toLowerCase()).to.equal(payer.address.toLowerCase());

    await page.getByRole('heading', { name: 'Part of your payment arrived' }).waitFor();
    await expectShortfallShown(page, payer.address);
    const button = page.getByRole('button', { name: 'Send 2.00 USDC' });
    await button.waitFor();
    expect(await seriousViolations(page), 'desktop top-up view').to.deep.equal([]);
    await s.shot(page, 'desktop-top-up');

    // The same view on a phone (another browser of the same customer).
    const phone = await customer({ privateKey: payer.privateKey, viewport: { width: 390, height: 844 } });
    await phone.page.goto(session.url);
    await topUpView(phone.page).waitFor();
    await expectShortfallShown(phone.page, payer.address);
    expect(await seriousViolations(phone.page), 'phone top-up view').to.deep.equal([]);
    await s.shot(phone.page, 'phone-top-up');
    await phone.context.close();

    await button.click();
    await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });

    // Exactly the missing 2 USDC, from the payer to the merchant, in one transaction.
    expect(wallet!.sent).to.have.length(2);
    const second = wallet!.sent[1]!.toLowerCase();
    expect(await transfersOf(second)).to.deep.equal([
      [payer.address.toLowerCase(), s.shop.wallet.address.toLowerCase(), parseUnits('2', 6)],
    ]);

    const paid = await s.expectPaid(session.id);
    expect(paid.payment.tx_hash).to.equal(first);
    const detail = await s.h.gw.call('GET', `/payments/api/${paid.payment.id}`, { headers: s.shop.key });
    expect(detail.body.data).to.include({
      status: 'completed',
      amount: '5.000000',
      received_amount: '5.000000',
    });
    expect(
      detail.body.data.transfers.map((t: { tx_hash: string; amount: string }) => [t.tx_hash, t.amount]),
    ).to.deep.equal([
      [first, '3.000000'],
      [second, '2.000000'],
    ]);
    const done = await publicView(session.id);
    expect(done.status).to.equal('complete');
    expect(done.payment).to.include({ status: 'completed', received_amount: '5.000000', amount_due: null });
  });

  it("tells a customer connected with another wallet that the rest must come from the payer's, and sends nothing", async () => {
    const session = await s.createSession({ amount: '5.00', currency: 'USDC' });
    const payer = s.nextCustomer();
    const other = s.nextCustomer();
    expect(other.address.toLowerCase()).not.to.equal(payer.address.toLowerCase());
    const { paymentId } = await payShort(session.id, payer.privateKey);
    const waiting = await awaitingTopUp(session.id);
    expect(waiting.payment).to.include({
      id: paymentId,
      received_amount: '3.000000',
      amount_due: '2.000000',
    });

    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const { page, wallet } = await customer({ privateKey: other.privateKey, viewport });
      await page.goto(session.url);
      await topUpView(page).waitFor();
      await expectShortfallShown(page, payer.address);
      const alert = page.locator('[data-wrong-account]');
      await alert.waitFor();
      const said = await alert.innerText();
      expect(said.toLowerCase()).to.contain(short(other.address.toLowerCase()));
      expect(said.toLowerCase()).to.contain(short(payer.address.toLowerCase()));
      expect(said).to.contain('only the wallet that paid can send the rest. Please switch to');
      expect(await seriousViolations(page), `${name} wrong-account view`).to.deep.equal([]);
      await s.shot(page, `${name}-top-up-wrong-account`);

      // The button waits for the payer's wallet, and nothing leaves this one.
      const button = page.getByRole('button', { name: 'Send 2.00 USDC' });
      expect(await button.isDisabled()).to.equal(true);
      expect(await button.getAttribute('aria-describedby')).to.equal(await alert.getAttribute('id'));
      await button.click({ force: true });
      await page.waitForTimeout(1000);
      expect(wallet!.sent).to.deep.equal([]);
      expect(wallet!.calls).not.to.include('eth_sendTransaction');
      expect(wallet!.calls).not.to.include('eth_signTypedData_v4');
    }

    const still = await publicView(session.id);
    expect(still.status).to.equal('open');
    expect(still.payment).to.include({
      status: 'pending',
      received_amount: '3.000000',
      amount_due: '2.000000',
    });
  });
});
