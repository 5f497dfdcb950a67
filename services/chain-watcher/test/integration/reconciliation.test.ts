import { expect } from 'chai';
import { Interface, toBeHex } from 'ethers';
import { ReconciliationResponse, type Reconciliation } from '@stablepay/contracts';
import { metricValue, waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { Customer } from '../support/chain.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';

const erc20 = new Interface(['function transfer(address to, uint256 value) returns (bool)']);

describe('ledger reconciliation with the chain (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let h: Harness;
  let shop: Merchant;
  let neighbour: Merchant;
  let customer: Customer;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 2 });
    h = await startHarness({ registry: devnet.registry(), env: { RECONCILE_INTERVAL_MS: '1000' } });
    shop = await h.createMerchant('BASE');
    neighbour = await h.createMerchant('BASE');
    customer = new Customer(devnet.chain('BASE'), devnet.customers[0]!);
  });
  after(async () => {
    customer?.destroy();
    await h?.close();
    await devnet?.stop();
  });

  const latest = async (m: Merchant): Promise<Reconciliation> => {
    const res = await h.call('/reconciliation/api/latest', { merchantId: m.merchantId });
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(ReconciliationResponse.safeParse(res.body).success).to.equal(true);
    return (res.body as ReconciliationResponse).data;
  };
  /** The first run that started after `since` (runs compare at a block that was confirmed when they started). */
  const runAfter = (m: Merchant, since: Date): Promise<Reconciliation> =>
    waitFor(
      async () => {
        const r = await latest(m);
        return r.checked_at !== null && new Date(r.checked_at) > since ? r : undefined;
      },
      20_000,
      'a reconciliation run',
    );
  const usdcOf = (r: Reconciliation) => r.wallets.find((w) => w.token === 'USDC');

  it('agrees on every wallet and token before anything moved, and shows each merchant only its own', async () => {
    const r = await runAfter(shop, new Date());
    expect(r.discrepancies).to.equal(0);
    expect(r.wallets.map((w) => [w.token, w.address, w.status])).to.deep.equal([
      ['EURC', shop.address, 'agrees'],
      ['USDC', shop.address, 'agrees'],
    ]);
    expect(usdcOf(r)).to.include({
      ledger_balance: '0.000000',
      onchain_balance: '0.000000',
      difference: '0.000000',
    });
    const other = await latest(neighbour);
    expect(other.wallets.every((w) => w.address === neighbour.address)).to.equal(true);
  });

  it('records a transfer nobody asked for as unattributed, and the ledger still agrees', async () => {
    const txHash = await customer.pay('USDC', shop.address, '5');
    await devnet.mine('BASE', 2);
    await waitFor(() => h.db('ledger_journals').where({ tx_hash: txHash, type: 'unattributed' }).first());
    const usdc = usdcOf(await runAfter(shop, new Date()));
    expect(usdc).to.include({
      status: 'agrees',
      ledger_balance: '5.000000',
      onchain_balance: '5.000000',
      difference: '0.000000',
    });
  });

  it('shows a transfer out of the wallet that the service did not make as a discrepancy within a run', async () => {
    const node = devnet.chain('BASE');
    const usdc = node.tokens.USDC!;
    // Someone holding the wallet's key (anvil impersonates it) moves 1 USDC out behind the service's back.
    await customer.provider.send('anvil_impersonateAccount', [shop.address]);
    await customer.provider.send('anvil_setBalance', [shop.address, toBeHex(10n ** 18n)]);
    const leak = (await customer.provider.send('eth_sendTransaction', [
      {
        from: shop.address,
        to: usdc,
        data: erc20.encodeFunctionData('transfer', [devnet.customers[1]!.address, 1_000_000n]),
      },
    ])) as string;
    await waitFor(() => customer.provider.getTransactionReceipt(leak));
    await customer.provider.send('anvil_stopImpersonatingAccount', [shop.address]);
    await devnet.mine('BASE', 2);
    const started = new Date();
    const r = await runAfter(shop, started);
    expect(r.discrepancies).to.equal(1);
    expect(usdcOf(r)).to.include({
      status: 'discrepancy',
      ledger_balance: '5.000000',
      onchain_balance: '4.000000',
      difference: '-1.000000',
    });
    // Seen within one run of the interval, not a minute later.
    expect(new Date(r.checked_at!).getTime() - started.getTime()).to.be.below(5_000);
    const text = await h.metrics();
    expect(
      metricValue(text, 'ledger_reconciliation_difference_units', { chain: 'BASE', token: 'USDC' }),
    ).to.equal(1_000_000);
    expect(
      metricValue(text, 'ledger_reconciliation_discrepancies', { chain: 'BASE', token: 'USDC' }),
    ).to.equal(1);
    expect(
      metricValue(text, 'ledger_reconciliation_discrepancies', { chain: 'BASE', token: 'EURC' }),
    ).to.equal(0);
    // The neighbour's wallets still agree and it is told nothing of the other wallet.
    const other = await latest(neighbour);
    expect(other.discrepancies).to.equal(0);
    expect(other.wallets.map((w) => w.address)).to.not.include(shop.address);
    // Earlier runs keep the discrepancy, not the wallets that agreed.
    const kept = await h
      .db('reconciliation_wallets')
      .where({ address: shop.address, token: 'USDC', status: 'discrepancy' });
    expect(kept.length).to.be.at.least(1);
  });
});
