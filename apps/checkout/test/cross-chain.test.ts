import { expect } from 'chai';
import { startCheckoutStack, SHOP, type CheckoutStack } from './support/checkout-stack.js';

/**
 * The bridge-kit flow from the page: the customer holds USDC on ETH, the merchant is paid on BASE.
 * The page approves, burns with the merchant's wallet as mint recipient, waits for the devnet's
 * attestation service, mints on BASE from the customer's wallet and reports both hashes.
 */
describe('checkout page: cross-chain payment over CCTP (Chromium, devnet)', function () {
  this.timeout(120_000);
  let s: CheckoutStack;

  before(async () => {
    s = await startCheckoutStack({ CCTP_POLL_MS: '200', CCTP_MAX_BACKOFF_MS: '1000' });
  });
  after(async () => s?.close());

  it('burns on ETH, mints on BASE and completes the session', async () => {
    const session = await s.createSession({ amount: '15.00', currency: 'USDC' });
    const { page, wallet, foreign, context } = await s.customer();
    await page.goto(session.url);
    await page.getByLabel('E-mail for your receipt').fill('bridge@example.com');
    await page.getByRole('button', { name: 'Connect your wallet' }).click();
    await page.locator('input[data-chain="ETH"][data-cross-chain="true"]').check();
    // The bridge code is a chunk of its own, fetched only now.
    const chunk = page.waitForResponse((r) => /cross-chain-.*\.js$/.test(r.url()));
    await page.locator('[data-pay]').click();
    await chunk;
    await page.locator('[data-step="attest"][data-state="done"]').waitFor({ timeout: 60_000 });
    await s.shot(page, 'desktop-cross-chain-progress');
    await page.waitForURL(`${SHOP}/thanks`, { timeout: 60_000 });
    const paid = await s.expectPaid(session.id);
    expect(paid.payment.is_cross_chain).to.equal(true);
    // approve, burn on ETH; receiveMessage on BASE.
    expect(wallet!.sent).to.have.length(3);
    const detail = await s.h.gw.call('GET', `/payments/api/${paid.payment.id}`, { headers: s.shop.key });
    expect(detail.body.data).to.include({ source_chain: 'ETH', status: 'completed' });
    expect(detail.body.data.tx_hash).to.equal(wallet!.sent[1]!.toLowerCase());
    expect(foreign).to.deep.equal([]);
    await context.close();
  });

  it('resumes from the burn on-chain after a reload while the wallet was burning', async () => {
    const session = await s.createSession({ amount: '7.00', currency: 'USDC' });
    const { page, wallet, context } = await s.customer();
    await page.goto(session.url);
    await page.getByLabel('E-mail for your receipt').fill('bridge@example.com');
    await page.getByRole('button', { name: 'Connect your wallet' }).click();
    await page.locator('input[data-chain="MATIC"][data-cross-chain="true"]').check();
    wallet!.afterSend = async () => {
      // The second transaction is the burn: the page goes away before it learns its hash.
      if (wallet!.sent.length === 2) {
        wallet!.afterSend = undefined;
        void page.reload();
      }
    };
    await page.locator('[data-pay]').click();
    await page.waitForURL(`${SHOP}/thanks`, { timeout: 90_000 });
    const paid = await s.expectPaid(session.id);
    expect(wallet!.sent, 'approve, burn, mint: nothing twice').to.have.length(3);
    expect(paid.payment.tx_hash).to.equal(wallet!.sent[1]!.toLowerCase());
    await context.close();
  });
});
