import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { metricValue, waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { Customer } from '../support/chain.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';

describe('recovery: transfer scanner and downtime (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let h: Harness;
  let shop: Merchant;
  let customer: Customer;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 2 });
    h = await startHarness({ registry: devnet.registry(), env: { SCAN_MAX_BLOCKS: '7' } });
    shop = await h.createMerchant('ETH');
    customer = new Customer(devnet.chain('ETH'), devnet.customers[0]!);
  });
  after(async () => {
    customer?.destroy();
    await h?.close();
    await devnet?.stop();
  });

  const unclaimed = (txHash: string) => h.db('unclaimed_transfers').where({ tx_hash: txHash }).first();
  const cursor = async (): Promise<number> =>
    Number((await h.db('chain_cursors').where({ chain_id: shop.chainId }).first()).last_scanned_block);

  it('records transfers to merchant wallets that no payment claims, and counts them', async () => {
    await devnet.mine('ETH', 20); // the scanner walks these in chunks of SCAN_MAX_BLOCKS
    const usdcTx = await customer.pay('USDC', shop.address, '4.2');
    const eurcTx = await customer.pay('EURC', shop.address, '1.25');
    const elsewhere = await customer.pay('USDC', devnet.customers[1]!.address, '2');
    const head = await devnet.mine('ETH', 20);

    const usdc = await waitFor(() => unclaimed(usdcTx));
    expect(usdc).to.include({
      status: 'unclaimed',
      token: 'USDC',
      blockchain: 'ETH',
      chain_id: shop.chainId,
      to_address: shop.address,
      from_address: customer.address,
      amount_units: '4200000',
      merchant_id: shop.merchantId,
      wallet_id: shop.walletId,
    });
    expect(await waitFor(() => unclaimed(eurcTx))).to.include({ token: 'EURC', amount_units: '1250000' });
    await waitFor(async () => (await cursor()) >= head);
    expect(await unclaimed(elsewhere)).to.equal(undefined);
    const text = await h.metrics();
    expect(metricValue(text, 'unclaimed_transfers_total', { chain: 'ETH', token: 'USDC' })).to.equal(1);
    expect(metricValue(text, 'unclaimed_transfers_total', { chain: 'ETH', token: 'EURC' })).to.equal(1);
    expect(metricValue(text, 'chain_scanner_last_block', { chain: 'ETH' })).to.be.at.least(head);
  });

  it('marks the transfer matched when its payment arrives, and verifies that payment', async () => {
    const txHash = (await h.db('unclaimed_transfers').where({ token: 'USDC', status: 'unclaimed' }).first())
      .tx_hash;
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '4.2',
      fromAddress: customer.address,
    });
    expect((await h.verdict(paymentId)).type).to.equal('chain.payment.verified');
    const row = await unclaimed(txHash);
    expect(row).to.include({ status: 'matched', matched_payment_id: paymentId });
    expect(metricValue(await h.metrics(), 'unclaimed_transfers_matched_total', { chain: 'ETH' })).to.equal(1);
  });

  it('does not report a transfer whose payment was recorded first', async () => {
    const txHash = await customer.pay('USDC', shop.address, '6');
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '6',
      fromAddress: customer.address,
    });
    await h.verdict(paymentId);
    const head = await devnet.mine('ETH', 2);
    await waitFor(async () => (await cursor()) >= head);
    const row = await unclaimed(txHash);
    expect(row === undefined || row.status === 'matched').to.equal(true);
  });

  it('loses nothing while the watcher is down: queued events, pending rows and transfers are all picked up', async () => {
    await h.service.stop();
    // While it is down: a payment is announced, and a transfer nobody announces arrives.
    const paidTx = await customer.pay('USDC', shop.address, '17.75');
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash: paidTx,
      amount: '17.75',
      fromAddress: customer.address,
    });
    const strayTx = await customer.pay('USDC', shop.address, '0.5');
    // A row a crashed replica left far in the future, with its lease long expired.
    const leftTx = await customer.pay('USDC', shop.address, '2.5');
    const leftId = randomUUID();
    await h.db('verifications').insert({
      payment_id: leftId,
      merchant_id: shop.merchantId,
      tx_hash: leftTx,
      chain_id: shop.chainId,
      source_chain: 'ETH',
      token: 'USDC',
      from_address: customer.address,
      to_address: shop.address,
      expected_units: '2500000',
      payment_created_at: new Date(),
      next_check_at: new Date(Date.now() + 86_400_000),
      locked_until: new Date(Date.now() - 60_000),
      last_checked_at: new Date(Date.now() - 3_600_000),
    });

    const restarted = await startHarness({
      registry: devnet.registry(),
      env: { RECOVERY_AFTER_MS: '500' },
      share: h,
    });
    try {
      const verdict = await h.verdict(paymentId);
      expect(verdict.data).to.include({ receivedAmount: '17.750000' });
      expect((await h.verdict(leftId)).type).to.equal('chain.payment.verified');
      expect(await waitFor(() => unclaimed(strayTx))).to.include({
        amount_units: '500000',
        status: 'unclaimed',
      });
      expect(metricValue(await restarted.metrics(), 'chain_verifications_recovered_total')).to.equal(1);
    } finally {
      await restarted.close();
    }
  });
});
