import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { EventTypes } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { Customer } from '../support/chain.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';

/** Reported top-ups of an underpaid payment, verified on anvil like a payment's transaction. */
describe('top-up verification (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(40_000);
  let devnet: Devnet;
  let h: Harness;
  let shop: Merchant;
  let alice: Customer;
  let bob: Customer;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 2 });
    h = await startHarness({ registry: devnet.registry() });
    shop = await h.createMerchant('BASE');
    alice = new Customer(devnet.chain('BASE'), devnet.customers[0]!);
    bob = new Customer(devnet.chain('BASE'), devnet.customers[1]!);
  });
  after(async () => {
    alice?.destroy();
    bob?.destroy();
    await h?.close();
    await devnet?.stop();
  });

  /** A payment of 5 from alice that moved 3: rejected underpaid, as payments then awaits a top-up. */
  const shortPayment = async () => {
    const sessionCreatedAt = new Date(Date.now() - 5_000).toISOString();
    const txHash = await alice.pay('USDC', shop.address, '3');
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '5',
      fromAddress: alice.address,
      sessionCreatedAt,
    });
    const verdict = await h.verdict(paymentId);
    expect(verdict.data).to.include({ reason: 'underpaid', receivedAmount: '3.000000' });
    return { paymentId, sessionCreatedAt };
  };
  const reportTopUp = async (
    p: { paymentId: string; sessionCreatedAt: string },
    txHash: string,
    opts: { times?: number } = {},
  ) => {
    const topUpId = randomUUID();
    await h.publish(
      EventTypes.PaymentTopUpReported,
      {
        topUpId,
        paymentId: p.paymentId,
        merchantId: shop.merchantId,
        txHash,
        currency: 'USDC',
        chainId: shop.chainId,
        sourceChain: 'BASE',
        fromAddress: alice.address,
        toAddress: shop.address,
        sessionCreatedAt: p.sessionCreatedAt,
        reportedAt: new Date().toISOString(),
      },
      { producer: 'payments', merchantId: shop.merchantId, times: opts.times },
    );
    return topUpId;
  };
  const topUpVerdict = (topUpId: string) =>
    h.event((e) => e.type.startsWith('chain.top_up.') && e.data.topUpId === topUpId);

  it('verifies a top-up from the payer with what it moved, claims it, and journals it once for the payment', async () => {
    const p = await shortPayment();
    const txHash = (await alice.pay('USDC', shop.address, '2')).toLowerCase();
    // Delivered twice, as at-least-once delivery may: one verification, one journal.
    const topUpId = await reportTopUp(p, txHash, { times: 2 });
    const verdict = await topUpVerdict(topUpId);
    expect(verdict.type).to.equal('chain.top_up.verified');
    expect(verdict.data).to.include({ paymentId: p.paymentId, txHash, receivedAmount: '2.000000' });
    const claim = await h.db('tx_claims').where({ chain_id: shop.chainId, tx_hash: txHash }).first();
    expect(claim.payment_id).to.equal(p.paymentId);
    const journals = await h.db('ledger_journals').where({ payment_id: p.paymentId }).orderBy('created_at');
    // Booked for the payment at once, or, when the scanner saw the transfer before the top-up was
    // reported, booked unattributed and then attributed to it: once either way.
    const ofTopUp = journals.filter((j) => j.tx_hash === txHash);
    expect(ofTopUp).to.have.length(1);
    expect(['payment', 'attribution']).to.include(ofTopUp[0].type);
    const hashes = [...new Set(journals.map((j) => j.tx_hash as string))];
    expect(hashes).to.have.length(2);
    // What the two transfers put in the wallet, whoever's journal first booked it.
    const walletLines = await h
      .db('ledger_entries')
      .join('ledger_journals', 'ledger_journals.id', 'ledger_entries.journal_id')
      .whereIn('ledger_journals.tx_hash', hashes)
      .where({ account: 'wallet' })
      .select('ledger_entries.amount');
    expect(walletLines.reduce((s, e) => s + BigInt(e.amount), 0n)).to.equal(5_000_000n);
    // Nothing else recorded for it: the scanner leaves a tracked top-up to its verdict.
    await new Promise((r) => setTimeout(r, 300));
    expect(await h.db('unclaimed_transfers').where({ tx_hash: txHash, status: 'unclaimed' })).to.have.length(
      0,
    );
  });

  it('rejects a top-up sent by someone else than the payer', async () => {
    const p = await shortPayment();
    const txHash = await bob.pay('USDC', shop.address, '2');
    const verdict = await topUpVerdict(await reportTopUp(p, txHash));
    expect(verdict.type).to.equal('chain.top_up.rejected');
    expect(verdict.data.reason).to.equal('wrong_sender');
    expect(await h.db('tx_claims').where({ tx_hash: txHash.toLowerCase() })).to.have.length(0);
    // Bob's tokens reached the wallet all the same, and nobody's payment claims them.
    const [j] = await h.db('ledger_journals').where({ tx_hash: txHash.toLowerCase() });
    expect(j).to.include({ type: 'unattributed', payment_id: null });
  });

  it("rejects a top-up whose transaction another payment claimed, and the payment's own transaction", async () => {
    const p = await shortPayment();
    // Alice's later transfer that paid another order of the shop cannot top this one up too.
    const txHash = await alice.pay('USDC', shop.address, '2');
    const theirs = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '2',
      fromAddress: alice.address,
    });
    expect((await h.verdict(theirs)).type).to.equal('chain.payment.verified');
    const verdict = await topUpVerdict(await reportTopUp(p, txHash));
    expect(verdict.type).to.equal('chain.top_up.rejected');
    expect(verdict.data.reason).to.equal('already_claimed');
    expect((await h.db('tx_claims').where({ tx_hash: txHash.toLowerCase() }).first()).payment_id).to.equal(
      theirs,
    );

    const own = (await h.db('verifications').where({ payment_id: p.paymentId }).first()).tx_hash as string;
    const again = await topUpVerdict(await reportTopUp(p, own));
    expect(again.type).to.equal('chain.top_up.rejected');
    expect(again.data.reason).to.equal('already_claimed');
    await waitFor(
      async () => (await h.db('top_up_verifications').where({ status: 'pending' })).length === 0 || undefined,
    );
  });
});
