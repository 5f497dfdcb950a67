import { expect } from 'chai';
import { Contract, JsonRpcProvider, Wallet, parseUnits } from 'ethers';
import { fiatTokenAbi } from '@stablepay/devnet';
import { waitFor } from '../support.js';
import { startStackHarness, type Merchant, type StackHarness } from './harness.js';

/** A payment whose transaction disappears in a reorg before it is deep enough is never completed. */
describe('a reorg on the devnet, through the gateway (PostgreSQL, RabbitMQ)', function () {
  this.timeout(120_000);
  let h: StackHarness;
  let shop: Merchant;
  let provider: JsonRpcProvider;

  before(async () => {
    h = await startStackHarness({ TX_NOT_FOUND_AFTER_MS: '4000' }, { confirmations: 3 });
    shop = await h.register('reorg@shop.example');
    const base = h.stack.devnet.chains.find((c) => c.name === 'BASE')!;
    provider = new JsonRpcProvider(base.rpcUrl, base.chainId, { staticNetwork: true, cacheTimeout: -1 });
  });
  after(async () => {
    provider?.destroy();
    await h?.close();
  });

  it('does not complete a payment whose block was reorganised away, and fails it once the tx is gone for good', async () => {
    const base = h.stack.devnet.chains.find((c) => c.name === 'BASE')!;
    const customer = new Wallet(h.stack.devnet.customers[0]!.privateKey, provider);
    const snapshot = await h.stack.devnet.snapshot('BASE');
    const tx = await new Contract(base.tokens.USDC, fiatTokenAbi(), customer).getFunction('transfer')(
      shop.wallet.address,
      parseUnits('7', 6),
    );
    await tx.wait();
    const created = await h.gw.call('POST', '/payments/create-public', {
      body: {
        merchantId: shop.merchantId,
        txHash: tx.hash,
        amount: 7,
        expectedAmount: 7,
        token: 'USDC',
        chainId: base.chainId,
        fromAddress: customer.address,
        toAddress: shop.wallet.address,
        customerEmail: 'payer@example.com',
      },
    });
    const id = created.body.data.paymentId as string;
    await h.stack.devnet.mine('BASE', 1); // two deep: seen, not yet enough
    // The chain-watcher has seen the transaction in its block, and is waiting for depth.
    const seen = await waitFor(async () => {
      const rows = await h.query<{ block_hash: string | null; status: string }>(
        'select block_hash, status from chain_watcher.verifications where payment_id = $1',
        [id],
      );
      return rows[0]?.block_hash ? rows[0] : undefined;
    }, 'the transaction seen in its block');
    expect(seen.status).to.equal('pending');
    // The chain forgets the transfer, then grows well past the old height.
    await h.stack.devnet.revert('BASE', snapshot);
    await h.stack.devnet.mine('BASE', 6);
    expect(await provider.getTransactionReceipt(tx.hash)).to.equal(null);

    const final = await waitFor(
      async () => {
        const d = (await h.gw.call('GET', `/payments/api/${id}`, { headers: shop.key })).body.data;
        return d.status === 'pending' ? undefined : d;
      },
      'final status',
      30_000,
    );
    expect(final).to.include({ status: 'failed', failure_reason: 'tx_not_found' });
    expect(h.events.some((e) => e.type === 'payment.completed' && e.body.data.payment_id === id)).to.equal(
      false,
    );
  });
});
