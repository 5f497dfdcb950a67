import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { walletBalanceAt } from '../../src/ledger/ledger-repo.js';
import { Customer } from '../support/chain.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import { ChainProbe, devnetRelayerKeys, requestTransfer, transferOutcome } from '../support/transfers.js';

describe('the ledger built from history recorded before it existed (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let h: Harness;
  let shop: Merchant;
  let alice: Customer;
  let bob: Customer;
  let base: ChainProbe;
  let env: Record<string, string>;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 2 });
    env = { RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet, ['BASE']), TRANSFER_POLL_MS: '50' };
    h = await startHarness({ registry: devnet.registry(), env });
    shop = await h.createMerchant('BASE');
    alice = new Customer(devnet.chain('BASE'), devnet.customers[0]!);
    bob = new Customer(devnet.chain('BASE'), devnet.customers[1]!);
    base = new ChainProbe(devnet.chain('BASE'));
    await waitFor(() => h.db('chain_cursors').where({ chain_id: shop.chainId }).first());
  });
  after(async () => {
    alice?.destroy();
    bob?.destroy();
    base?.destroy();
    await h?.close();
    await devnet?.stop();
  });

  const cursorPast = async (block: number) =>
    waitFor(async () => {
      const c = await h.db('chain_cursors').where({ chain_id: shop.chainId }).first();
      return Number(c.last_scanned_block) >= block || undefined;
    });
  const forgetLedger = async () => {
    await h.db('ledger_entries').delete();
    await h.db('ledger_journals').delete();
    await h.db('ledger_balances').delete();
    await h.db('ledger_backfill').delete();
  };
  const restart = async () => {
    await h.service.stop();
    const again = await startHarness({ registry: devnet.registry(), env, share: h });
    try {
      return await waitFor(() => h.db('ledger_backfill').first(), 20_000, 'the backfill');
    } finally {
      await again.close();
    }
  };
  const wallet = () => ({ chainId: shop.chainId, token: 'USDC', walletAddress: shop.address });

  it('rebuilds payments, underpayments, unclaimed transfers, refunds and withdrawals; the wallet account equals balanceOf', async () => {
    const paid = await alice.pay('USDC', shop.address, '30');
    const p1 = await h.publishPayment({
      merchant: shop,
      txHash: paid,
      amount: '30',
      fromAddress: alice.address,
    });
    const short = await alice.pay('USDC', shop.address, '2');
    const p2 = await h.publishPayment({
      merchant: shop,
      txHash: short,
      amount: '3',
      fromAddress: alice.address,
    });
    await bob.pay('USDC', shop.address, '1.5');
    await bob.pay('EURC', shop.address, '4');
    expect((await h.verdict(p1)).type).to.equal('chain.payment.verified');
    expect((await h.verdict(p2)).data.reason).to.equal('underpaid');
    const refundId = randomUUID();
    const refund = await requestTransfer(h, {
      merchant: shop,
      toAddress: alice.address,
      amount: '2',
      idempotencyKey: refundId,
    });
    const net = await requestTransfer(h, {
      merchant: shop,
      toAddress: bob.address,
      amount: '20',
      purpose: 'withdrawal',
      idempotencyKey: `withdrawal:${randomUUID()}:net`,
    });
    for (const key of [refund, net])
      expect((await transferOutcome(h, key)).type).to.equal('transfer.confirmed');
    const head = await devnet.mine('BASE', 1);
    await devnet.mine('BASE', 5);
    await cursorPast(head);
    // The scanner may have seen a payment's transfer first (unattributed, then attributed).
    const live = await h.db('ledger_journals').whereNot('type', 'attribution').count({ n: '*' });
    expect(Number(live[0]!.n)).to.equal(6);

    // As if the ledger had not existed when all this happened.
    await forgetLedger();
    const done = await restart();
    expect(done.movements).to.be.at.least(6);
    const rebuilt = await h.db('ledger_journals').select('type', 'payment_id', 'refund_id', 'token');
    expect(
      rebuilt.map((j) => `${j.type}:${j.token}:${j.payment_id ?? j.refund_id ?? '-'}`).sort(),
    ).to.deep.equal(
      [
        `payment:USDC:${p1}`,
        `payment:USDC:${p2}`,
        `refund:USDC:${refundId}`,
        'unattributed:USDC:-',
        'unattributed:EURC:-',
        'withdrawal:USDC:-',
      ].sort(),
    );
    for (const token of ['USDC', 'EURC'] as const) {
      expect(await walletBalanceAt(h.db, { ...wallet(), token }, head), token).to.equal(
        await base.balance(token, shop.address),
      );
    }
    expect(await walletBalanceAt(h.db, wallet(), head)).to.equal(
      30_000_000n + 2_000_000n + 1_500_000n - 22_000_000n,
    );
  });

  it('records nothing twice when it runs again beside what the live path recorded', async () => {
    const before = await h.db('ledger_entries').count({ n: '*' });
    await h.db('ledger_backfill').delete();
    await restart();
    expect(await h.db('ledger_entries').count({ n: '*' })).to.deep.equal(before);
  });
});
