import { expect } from 'chai';
import type { ChainRegistry } from '@stablepay/contracts';
import { metricValue, waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { Customer } from '../support/chain.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';

/** The devnet registry with 3 confirmations on MATIC: the including block and two on top. */
const deepRegistry = (devnet: Devnet): ChainRegistry => {
  const registry = devnet.registry();
  return {
    ...registry,
    chains: registry.chains.map((c) => (c.name === 'MATIC' ? { ...c, confirmations: 3 } : c)),
  };
};

describe('block depth and reorgs (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let h: Harness;
  let shop: Merchant;
  let customer: Customer;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 2 });
    h = await startHarness({ registry: deepRegistry(devnet), env: { TX_NOT_FOUND_AFTER_MS: '2500' } });
    shop = await h.createMerchant('MATIC', ['USDC']);
    customer = new Customer(devnet.chain('MATIC'), devnet.customers[0]!);
  });
  after(async () => {
    customer?.destroy();
    await h?.close();
    await devnet?.stop();
  });

  const row = (paymentId: string) => h.db('verifications').where({ payment_id: paymentId }).first();
  const checksOf = async (paymentId: string): Promise<number> => (await row(paymentId)).check_count;
  const verdictsAbout = (paymentId: string) =>
    h.events.messages.filter((e) => e.data?.paymentId === paymentId);

  it('waits for the chain confirmations before verifying, without failing the payment', async () => {
    const txHash = await customer.pay('USDC', shop.address, '40');
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '40',
      fromAddress: customer.address,
    });
    // Seen in its block, one confirmation of three: it stays pending, re-checked.
    const seen = await waitFor(async () => {
      const r = await row(paymentId);
      return r?.block_hash ? r : undefined;
    });
    expect(seen.status).to.equal('pending');
    const checks = await checksOf(paymentId);
    await waitFor(async () => (await checksOf(paymentId)) >= checks + 3);
    expect(verdictsAbout(paymentId)).to.have.length(0);

    await devnet.mine('MATIC', 1); // two confirmations: still not enough
    const after = await checksOf(paymentId);
    await waitFor(async () => (await checksOf(paymentId)) >= after + 3);
    await h.events.drain();
    expect(verdictsAbout(paymentId)).to.have.length(0);
    expect((await row(paymentId)).status).to.equal('pending');

    await devnet.mine('MATIC', 1); // three
    const verdict = await h.verdict(paymentId);
    expect(verdict.type).to.equal('chain.payment.verified');
    expect(verdict.data.confirmations).to.be.at.least(3);
    expect(verdict.data.blockNumber).to.equal(Number(seen.block_number));
  });

  it('never verifies a transaction whose block was reorganised away', async () => {
    const snapshot = await devnet.snapshot('MATIC');
    const txHash = await customer.pay('USDC', shop.address, '11');
    await devnet.mine('MATIC', 1); // two of three confirmations
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '11',
      fromAddress: customer.address,
    });
    await waitFor(async () => (await row(paymentId))?.block_hash);

    // The chain drops the block with the transaction and grows past it: the receipt is gone.
    await devnet.revert('MATIC', snapshot);
    expect(await customer.provider.getTransactionReceipt(txHash)).to.equal(null);
    await devnet.mine('MATIC', 5);

    const verdict = await h.verdict(paymentId);
    expect(verdict.type).to.equal('chain.payment.rejected');
    expect(verdict.data.reason).to.equal('tx_not_found');
    await h.events.drain();
    expect(verdictsAbout(paymentId).filter((e) => e.type === 'chain.payment.verified')).to.have.length(0);
    expect(metricValue(await h.metrics(), 'chain_reorgs_detected_total', { chain: 'MATIC' })).to.be.at.least(
      1,
    );
  });

  it('follows a transaction into its new block when a reorg re-includes it', async () => {
    const snapshot = await devnet.snapshot('MATIC');
    const signed = await customer.wallet.signTransaction(
      await customer.wallet.populateTransaction(
        await customer.token('USDC').getFunction('transfer').populateTransaction(shop.address, 6_000_000n),
      ),
    );
    const txHash = await customer.provider.send('eth_sendRawTransaction', [signed]);
    await customer.mined(txHash);
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '6',
      fromAddress: customer.address,
    });
    const first = await waitFor(async () => (await row(paymentId))?.block_hash);

    // Another history: an empty block first, then the same signed transaction in a later block.
    await devnet.revert('MATIC', snapshot);
    await devnet.mine('MATIC', 1);
    await customer.provider.send('eth_sendRawTransaction', [signed]);
    await customer.mined(txHash);
    const moved = await customer.provider.getTransactionReceipt(txHash);
    expect(moved!.blockHash).to.not.equal(first);
    await devnet.mine('MATIC', 2);

    const verdict = await h.verdict(paymentId);
    expect(verdict.type).to.equal('chain.payment.verified');
    expect(verdict.data.blockNumber).to.equal(moved!.blockNumber);
    expect((await row(paymentId)).block_hash).to.equal(moved!.blockHash);
  });
});
