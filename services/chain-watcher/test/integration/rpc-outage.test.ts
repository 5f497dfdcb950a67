import { expect } from 'chai';
import type { ChainRegistry } from '@stablepay/contracts';
import { metricValue, waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { Customer } from '../support/chain.js';
import { startHarness, type Harness } from '../support/harness.js';
import { RpcProxy, deadUrl } from '@stablepay/devnet';

const withBaseUrls = (devnet: Devnet, rpcUrls: string[]): ChainRegistry => {
  const registry = devnet.registry();
  return { ...registry, chains: registry.chains.map((c) => (c.name === 'BASE' ? { ...c, rpcUrls } : c)) };
};

describe('RPC failures never fail a payment (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let customer: Customer;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 2 });
    customer = new Customer(devnet.chain('BASE'), devnet.customers[0]!);
  });
  after(async () => {
    customer?.destroy();
    await devnet?.stop();
  });

  describe('a dead primary URL', () => {
    let h: Harness;
    before(async () => {
      h = await startHarness({
        registry: withBaseUrls(devnet, [await deadUrl(), devnet.chain('BASE').rpcUrl]),
      });
    });
    after(async () => h?.close());

    it('falls back to the next URL in order and counts the failures', async () => {
      const shop = await h.createMerchant('BASE');
      const txHash = await customer.pay('USDC', shop.address, '8.25');
      const paymentId = await h.publishPayment({
        merchant: shop,
        txHash,
        amount: '8.25',
        fromAddress: customer.address,
      });
      const verdict = await h.verdict(paymentId);
      expect(verdict.type).to.equal('chain.payment.verified');
      expect(verdict.data.receivedAmount).to.equal('8.250000');
      const balance = await h.call('/wallets/api/balance', { merchantId: shop.merchantId });
      expect(balance.body.data.balances[0]).to.deep.equal({ token: 'USDC', amount: '8.250000' });
      const text = await h.metrics();
      expect(metricValue(text, 'chain_rpc_errors_total', { chain: 'BASE', kind: 'refused' })).to.be.at.least(
        1,
      );
      expect(metricValue(text, 'chain_rpc_fallbacks_total', { chain: 'BASE' })).to.be.at.least(1);
    });
  });

  describe('every URL down for a while', () => {
    let h: Harness;
    const primary = new RpcProxy();
    const secondary = new RpcProxy();
    before(async () => {
      const target = devnet.chain('BASE').rpcUrl;
      const urls = [await primary.start(target), await secondary.start(target)];
      h = await startHarness({
        registry: withBaseUrls(devnet, urls),
        // The outage outlasts the not-found deadline: an unanswered question is not a missing transaction.
        env: { RPC_TIMEOUT_MS: '300', TX_NOT_FOUND_AFTER_MS: '1000' },
      });
    });
    after(async () => {
      await h?.close();
      await primary.stop();
      await secondary.stop();
    });

    it('keeps the payment pending through timeouts, 429s and 5xx, answers 503 for balances, and verifies once the RPC is back', async () => {
      const shop = await h.createMerchant('BASE');
      const txHash = await customer.pay('USDC', shop.address, '31.4');
      primary.mode = 'hang';
      secondary.mode = 'http_429';
      const paymentId = await h.publishPayment({
        merchant: shop,
        txHash,
        amount: '31.4',
        fromAddress: customer.address,
      });
      const row = () => h.db('verifications').where({ payment_id: paymentId }).first();
      await waitFor(async () => (await row())?.check_count >= 3, 10_000);
      secondary.mode = 'http_502';
      const checks = (await row()).check_count;
      await waitFor(async () => (await row()).check_count >= checks + 2, 10_000);

      const pending = await row();
      expect(pending.status).to.equal('pending');
      expect(pending.last_error).to.match(/BASE RPC unavailable/);
      expect(Date.now() - new Date(pending.payment_created_at).getTime()).to.be.greaterThan(1_000);
      const balance = await h.call('/wallets/api/balance', { merchantId: shop.merchantId });
      expect(balance.status).to.equal(503);
      expect(balance.headers.get('cache-control')).to.equal('no-store');
      expect(balance.body).to.include({ success: false });
      expect(balance.body.error).to.match(/BASE network cannot be reached/);
      await h.events.drain();
      expect(h.events.messages.filter((e) => e.data?.paymentId === paymentId)).to.have.length(0);

      secondary.mode = 'up';
      const verdict = await h.verdict(paymentId);
      expect(verdict.type).to.equal('chain.payment.verified');
      expect(verdict.data.receivedAmount).to.equal('31.400000');
      const text = await h.metrics();
      for (const kind of ['timeout', 'rate_limited', 'server_error']) {
        expect(metricValue(text, 'chain_rpc_errors_total', { chain: 'BASE', kind }), kind).to.be.at.least(1);
      }
    });
  });
});
