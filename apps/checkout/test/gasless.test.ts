import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Contract, JsonRpcProvider, Wallet, id, parseUnits, zeroPadValue } from 'ethers';
import { fiatTokenAbi } from '@stablepay/devnet';
import type { Locator, Page } from 'playwright-core';
import { startCheckoutServer, type CheckoutServer } from '../server/src/server.js';
import { seriousViolations } from './support/axe.js';
import {
  SHOP,
  startCheckoutStack,
  waitFor,
  type CheckoutStack,
  trackedCustomers,
  type Customer,
} from './support/checkout-stack.js';

const AUTHORIZATION_USED = id('AuthorizationUsed(address,bytes32)');
const PHONE = { width: 390, height: 844 };

/**
 * Paying with one signature (EIP-3009) from the page and the widget, in Chromium against the whole
 * stack on the devnet: the customer's wallet holds USDC and no native token at all, signs once, and
 * the relay's transaction pays the merchant. Every fee shows before the signature; screenshots of
 * the fee step, the signing step and the receipt land in test-results/.
 */
describe('checkout: gasless payments by signature (Chromium, devnet)', function () {
  this.timeout(120_000);
  let s: CheckoutStack;
  const providers: JsonRpcProvider[] = [];
  /** click → completed, per test, for the report */
  const timings: Record<string, number> = {};

  before(async () => {
    s = await startCheckoutStack({ CCTP_POLL_MS: '200', CCTP_MAX_BACKOFF_MS: '1000' });
  });
  after(async () => {
    console.log('gasless click → completed (ms):', JSON.stringify(timings));
    for (const p of providers) p.destroy();
    await s?.close();
  });
  const customer = trackedCustomers(() => s);

  const provider = (chainName: string) => {
    const c = s.chain(chainName);
    const p = new JsonRpcProvider(c.rpcUrl, c.chainId, { staticNetwork: true, cacheTimeout: -1 });
    providers.push(p);
    return p;
  };

  /** A fresh customer holding only USDC on one chain: not a wei of native gas anywhere. */
  const customerWithoutGas = async (usdc: string, chainName = 'BASE', viewport?: typeof PHONE) => {
    const key = Wallet.createRandom().privateKey;
    const address = new Wallet(key).address;
    await s.transfer(s.nextCustomer().privateKey, 'USDC', usdc, chainName, address);
    for (const c of s.h.stack.devnet.chains)
      expect(await provider(c.name).getBalance(address), `no gas on ${c.name}`).to.equal(0n);
    return customer({ privateKey: key, viewport });
  };

  /** The transaction that used the customer's authorization on the chain, found by its log. */
  const authorizationUse = async (chainName: string, from: string, nonce: string) => {
    const chain = s.chain(chainName);
    const logs = await provider(chainName).getLogs({
      address: chain.tokens.USDC,
      topics: [AUTHORIZATION_USED, zeroPadValue(from, 32), nonce],
      fromBlock: 0,
    });
    expect(logs, 'the authorization was used once').to.have.length(1);
    return logs[0]!.transactionHash.toLowerCase();
  };

  const connect = async (root: Locator, chain = 'BASE', crossChain = false) => {
    await root.getByLabel('E-mail for your receipt').fill('gasless@example.com');
    await root.getByRole('button', { name: 'Connect your wallet' }).click();
    await root.locator(`input[data-chain="${chain}"][data-cross-chain="${crossChain}"]`).check();
  };

  /** The fee step: every line of the quote on the page, nothing signed yet. */
  const expectFees = async (root: Locator, c: Customer, lines: { amount: string; crossChain?: boolean }) => {
    await root.locator('[data-fees]').waitFor();
    const authorizations = c.wallet!.signed.filter((d) => d.primaryType === 'TransferWithAuthorization');
    expect(authorizations, 'no authorization signed before the fees show').to.deep.equal([]);
    expect(await root.locator('[data-fee="amount"]').innerText()).to.contain(`${lines.amount} USDC`);
    expect(await root.locator('[data-fee="network"]').innerText()).to.match(/\d\.\d{2,6} USDC/);
    expect(await root.locator('[data-fee="cctp"]').count()).to.equal(lines.crossChain ? 1 : 0);
    const total = (await root.locator('[data-fee="total"]').innerText()).replace(' USDC', '');
    expect(await root.locator('[data-pay]').innerText()).to.contain(`Sign to pay ${total} USDC`);
    return total;
  };

  /** Screenshots the page while the wallet's prompt is open (the signing step), once. */
  const shootWhileSigning = (c: Customer, page: Page, name: string) => {
    let shot = false;
    c.wallet!.beforeSign = async (typed) => {
      if (shot || typed.primaryType !== 'TransferWithAuthorization') return;
      shot = true;
      await page
        .waitForSelector('[data-step="sign"][data-state="active"]', { timeout: 5000 })
        .catch(() => undefined);
      await s.shot(page, name);
    };
  };

  const paymentDetail = async (paymentId: string) =>
    (await s.h.gw.call('GET', `/payments/api/${paymentId}`, { headers: s.shop.key })).body.data;

  const payOnPage = async (name: string, viewport?: typeof PHONE) => {
    const session = await s.createSession({ amount: '9.50', currency: 'USDC' });
    const c = await customerWithoutGas('20', 'BASE', viewport);
    const { page, wallet } = c;
    await page.goto(session.url);
    const root = page.locator('body');
    await connect(root);
    // No gas: the signature is offered by default, and says why.
    expect(await root.locator('input[data-funding="authorization"]').isChecked()).to.equal(true);
    expect(await root.locator('[data-gas-short]').innerText()).to.contain('too little ETH on Base');
    const total = await expectFees(root, c, { amount: '9.50' });
    expect(await seriousViolations(page), 'the fee step').to.deep.equal([]);
    await s.shot(page, `${name}-gasless-fees`);
    shootWhileSigning(c, page, `${name}-gasless-signing`);

    const clicked = Date.now();
    await root.locator('[data-pay]').click();
    await root.getByText('Paid. Thank you!').waitFor({ timeout: 60_000 });
    timings[`page ${name}`] = Date.now() - clicked;
    await s.shot(page, `${name}-gasless-receipt`);
    await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });

    const paid = await s.expectPaid(session.id);
    const typed = wallet!.signed.find((d) => d.primaryType === 'TransferWithAuthorization');
    expect(typed.message.to.toLowerCase()).to.equal(s.shop.wallet.address.toLowerCase());
    const relayTx = await authorizationUse('BASE', wallet!.address, typed.message.nonce);
    expect(paid.payment.tx_hash).to.equal(relayTx);
    expect(wallet!.sent, 'the customer sent no transaction').to.deep.equal([]);
    expect(await paymentDetail(paid.payment.id)).to.include({
      funding: 'authorization',
      status: 'completed',
    });
    // No gas spent, and exactly the total the customer authorised left the wallet.
    expect(await provider('BASE').getBalance(wallet!.address)).to.equal(0n);
    const usdc = new Contract(s.chain('BASE').tokens.USDC!, fiatTokenAbi(), provider('BASE'));
    expect(await usdc.getFunction('balanceOf')(wallet!.address)).to.equal(
      20_000_000n - BigInt(typed.message.value),
    );
    expect(BigInt(typed.message.value)).to.equal(parseUnits(total, 6));
  };

  it('pays a session on the merchant chain from a wallet with USDC and no gas (desktop)', async () => {
    await payOnPage('desktop');
  });

  it('pays a session by signature at phone size', async () => {
    await payOnPage('phone', PHONE);
  });

  it("turns the wallet's 'insufficient funds' on the transfer path into a sentence that offers the signature", async () => {
    const session = await s.createSession({ amount: '4.00', currency: 'USDC' });
    const c = await customerWithoutGas('10');
    const { page, wallet } = c;
    await page.goto(session.url);
    const root = page.locator('body');
    await connect(root);
    await root.locator('input[data-funding="transfer"]').check();
    await root.locator('[data-pay="transfer"]').click();
    const alert = root.locator('[data-problem="gas"]');
    await alert.waitFor({ timeout: 30_000 });
    const text = await alert.innerText();
    expect(text).to.contain('too little ETH on Base').and.contain('Pay with a signature instead');
    expect(text).to.not.match(/insufficient funds|intrinsic|0x02f8/i);
    expect(await seriousViolations(page), 'the gas sentence').to.deep.equal([]);
    await s.shot(page, 'desktop-gasless-no-gas-sentence');
    await root.locator('[data-use-signature]').click();
    await expectFees(root, c, { amount: '4.00' });
    await root.locator('[data-pay="authorization"]').click();
    await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });
    await s.expectPaid(session.id);
    expect(wallet!.sent).to.deep.equal([]);
  });

  it('resumes after a reload once the authorization is signed, asking the wallet once', async () => {
    const session = await s.createSession({ amount: '5.25', currency: 'USDC' });
    const c = await customerWithoutGas('10');
    const { page, wallet } = c;
    await page.goto(session.url);
    const root = page.locator('body');
    await connect(root);
    await expectFees(root, c, { amount: '5.25' });
    await root.locator('[data-pay]').click();
    // Signed and sent to the gateway: the page goes away before it sees the relay's transaction.
    await root.locator('[data-step="record"][data-state="done"]').waitFor({ timeout: 30_000 });
    await page.reload();
    await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });
    const paid = await s.expectPaid(session.id);
    const signed = wallet!.signed.filter((d) => d.primaryType === 'TransferWithAuthorization');
    expect(signed, 'one signature').to.have.length(1);
    expect(paid.payment.tx_hash).to.equal(
      await authorizationUse('BASE', wallet!.address, signed[0].message.nonce),
    );
  });

  it('shows a refusal as its sentence, and nothing is stored or sent', async () => {
    const session = await s.createSession({ amount: '3.00', currency: 'USDC' });
    const c = await customerWithoutGas('10');
    const { page, wallet } = c;
    // The wallet signs another value than the page showed: the gateway's check refuses the signature.
    wallet!.alterSign = (typed) =>
      typed.primaryType === 'TransferWithAuthorization'
        ? { ...typed, message: { ...typed.message, value: '1' } }
        : typed;
    await page.goto(session.url);
    const root = page.locator('body');
    await connect(root);
    await expectFees(root, c, { amount: '3.00' });
    await root.locator('[data-pay]').click();
    const alert = root.locator('[data-problem="refused"]');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.getAttribute('data-code')).to.equal('authorization_signature_invalid');
    expect(await alert.innerText()).to.equal(
      "Your wallet's signature does not match this payment. Nothing was sent; please sign again.",
    );
    await s.shot(page, 'desktop-gasless-refused');
    const merchant = await s.merchantSession(session.id);
    expect(merchant.status).to.equal('open');
    expect(merchant.payment).to.equal(null);
    expect(wallet!.sent).to.deep.equal([]);
  });

  it('keeps the transfer path by default for a customer with gas, who may still choose the signature', async () => {
    const session = await s.createSession({ amount: '2.00', currency: 'USDC' });
    const c = await customer();
    const { page } = c;
    await page.goto(session.url);
    const root = page.locator('body');
    await connect(root);
    expect(await root.locator('input[data-funding="transfer"]').isChecked()).to.equal(true);
    expect(await root.locator('[data-gas-short]').count()).to.equal(0);
    expect(await root.locator('[data-fees]').count()).to.equal(0);
    expect(await root.locator('[data-pay]').getAttribute('data-pay')).to.equal('transfer');
    await root.locator('input[data-funding="authorization"]').check();
    await expectFees(root, c, { amount: '2.00' });
    // Back to the transfer, which pays as before.
    await root.locator('input[data-funding="transfer"]').check();
    await root.locator('[data-pay="transfer"]').click();
    await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });
    const paid = await s.expectPaid(session.id);
    expect(paid.payment.tx_hash).to.equal(c.wallet!.sent.at(-1)!.toLowerCase());
  });

  // Waits for phase 2 of the backend: the chain-watcher still rejects cross-chain authorizations
  // (chain.payment.rejected, "not available yet"), so the payment fails after the signature.
  it.skip('pays cross-chain without gas on either chain: USDC on ETH, the merchant paid on BASE', async () => {
    const session = await s.createSession({ amount: '6.00', currency: 'USDC' });
    const c = await customerWithoutGas('20', 'ETH', PHONE);
    const { page, wallet } = c;
    await page.goto(session.url);
    const root = page.locator('body');
    await connect(root, 'ETH', true);
    expect(await root.locator('input[data-funding="authorization"]').isChecked()).to.equal(true);
    await expectFees(root, c, { amount: '6.00', crossChain: true });
    await s.shot(page, 'phone-gasless-cross-chain-fees');
    shootWhileSigning(c, page, 'phone-gasless-cross-chain-signing');
    const clicked = Date.now();
    await root.locator('[data-pay]').click();
    await root.getByText('Paid. Thank you!').waitFor({ timeout: 90_000 });
    timings['page cross-chain'] = Date.now() - clicked;
    await s.shot(page, 'phone-gasless-cross-chain-receipt');
    await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });
    const paid = await s.expectPaid(session.id);
    expect(paid.payment.is_cross_chain).to.equal(true);
    const typed = wallet!.signed.find((d) => d.primaryType === 'TransferWithAuthorization');
    // Cross-chain, the customer authorises the relay on their chain, which burns to the merchant.
    expect(typed.domain.chainId).to.equal(s.chain('ETH').chainId);
    expect(typed.message.to.toLowerCase()).to.not.equal(s.shop.wallet.address.toLowerCase());
    await authorizationUse('ETH', wallet!.address, typed.message.nonce);
    expect(wallet!.sent).to.deep.equal([]);
    expect(await paymentDetail(paid.payment.id)).to.include({
      funding: 'authorization',
      source_chain: 'ETH',
    });
  });

  describe('in the widget', () => {
    let host: Server;
    let hostUrl: string;
    // The shop's page opens the widget by merchant, so its origin must be listed (WIDGET_ORIGINS) on
    // the checkout server that frames it: one of its own, as a deployment serving that shop would.
    let checkout: CheckoutServer;
    before(async () => {
      host = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
          <button id="buy" data-stablepay-merchant="${s.shop.merchantId}" data-amount="8.40" data-reference="order-88">Buy</button>
          <pre id="result"></pre>
          <script src="${checkout.url}widget.js"></script>
          <script>document.addEventListener('stablepay:result', (e) => {
            document.getElementById('result').textContent = JSON.stringify(e.detail);
          });</script></body></html>`);
      });
      await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
      hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/shop`;
      checkout = await startCheckoutServer({
        host: '127.0.0.1',
        port: 0,
        widgetOrigins: [new URL(hostUrl).origin],
      });
      const { stack } = s.h;
      checkout.configure({ gatewayUrl: stack.gatewayUrl }, [
        stack.gatewayUrl,
        ...stack.devnet.chains.map((c) => c.rpcUrl),
        stack.attestation.url,
      ]);
    });
    after(async () => {
      host?.close();
      await checkout?.stop();
    });

    it('pays a fixed amount by signature from the overlay and tells the host page the relay transaction', async () => {
      const c = await customerWithoutGas('20');
      const { page, wallet } = c;
      await page.goto(hostUrl);
      await page.getByRole('button', { name: 'Buy' }).click();
      const frameElement = page.frameLocator('iframe[title="Payment"]');
      const root = frameElement.locator('body');
      await root.getByRole('heading', { name: 'Pay Shop' }).waitFor();
      await connect(root);
      expect(await root.locator('input[data-funding="authorization"]').isChecked()).to.equal(true);
      await expectFees(root, c, { amount: '8.40' });
      const frame = page.frames().find((f) => f.url().includes('embed.html'))!;
      expect(await seriousViolations(frame), 'the widget fee step').to.deep.equal([]);
      await s.shot(page, 'desktop-widget-gasless-fees');
      shootWhileSigning(c, page, 'desktop-widget-gasless-signing');
      const clicked = Date.now();
      await root.locator('[data-pay]').click();
      await root.getByText('Paid. Thank you!').waitFor({ timeout: 60_000 });
      timings.widget = Date.now() - clicked;
      await s.shot(page, 'desktop-widget-gasless-receipt');
      const result = JSON.parse(
        await waitFor(
          async () => (await page.locator('#result').innerText()) || undefined,
          'the result',
          60_000,
        ),
      );
      expect(result).to.include({ status: 'completed' });
      const typed = wallet!.signed.find((d) => d.primaryType === 'TransferWithAuthorization');
      expect(result.txHash).to.equal(await authorizationUse('BASE', wallet!.address, typed.message.nonce));
      const payment = await waitFor(async () => {
        const p = await paymentDetail(result.paymentId);
        return p?.status === 'completed' ? p : undefined;
      }, 'payment completed');
      expect(payment).to.include({
        amount: '8.400000',
        reference: 'order-88',
        funding: 'authorization',
        customer_email: 'gasless@example.com',
      });
      expect(wallet!.sent).to.deep.equal([]);
      // The shop's page and the checkout server framed on it are first party, not third-party requests.
      const firstParty = [new URL(hostUrl).origin, new URL(checkout.url).origin];
      c.foreign.splice(
        0,
        c.foreign.length,
        ...c.foreign.filter((u) => !firstParty.includes(new URL(u).origin)),
      );
    });
  });
});
