import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { getAddress } from 'ethers';
import { ChainPaymentRejectedData, ChainPaymentVerifiedData } from '@stablepay/contracts';
import { metricValue, waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { ChainRpc } from '../../src/index.js';
import { Customer, units } from '../support/chain.js';
import { randomTxHash, startHarness, type Harness, type Merchant } from '../support/harness.js';

describe('same-chain verification with real transactions (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let h: Harness;
  let shop: Merchant;
  let alice: Customer;
  let bob: Customer;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 3 });
    h = await startHarness({ registry: devnet.registry(), env: { TX_NOT_FOUND_AFTER_MS: '1500' } });
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

  /** The verdict of a payment, checked to be the only event about it. */
  const onlyVerdict = async (paymentId: string) => {
    const verdict = await h.verdict(paymentId);
    await h.events.drain();
    const about = h.events.messages.filter((e) => e.data?.paymentId === paymentId);
    expect(about, 'events about the payment').to.have.length(1);
    return verdict;
  };

  const expectRejected = async (paymentId: string, reason: string, receivedAmount: string | null = null) => {
    const verdict = await onlyVerdict(paymentId);
    expect(verdict.type).to.equal('chain.payment.rejected');
    expect(ChainPaymentRejectedData.parse(verdict.data)).to.deep.include({
      paymentId,
      reason,
      receivedAmount,
    });
    expect(verdict.data.detail).to.be.a('string').and.not.equal('');
    return verdict;
  };

  it('verifies a USDC payment with the exact amount, once', async () => {
    const txHash = await alice.pay('USDC', shop.address, '25.5');
    const receipt = await alice.provider.getTransactionReceipt(txHash);
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '25.5',
      fromAddress: alice.address,
    });
    const verdict = await onlyVerdict(paymentId);
    expect(verdict).to.include({
      type: 'chain.payment.verified',
      producer: 'chain-watcher',
      merchantId: shop.merchantId,
    });
    const data = ChainPaymentVerifiedData.parse(verdict.data);
    expect(data).to.deep.include({
      paymentId,
      txHash,
      chainId: shop.chainId,
      token: 'USDC',
      fromAddress: getAddress(alice.address),
      toAddress: shop.address,
      receivedAmount: '25.500000',
      blockNumber: receipt!.blockNumber,
    });
    expect(data.confirmations).to.be.at.least(1);
    const block = await alice.provider.getBlock(receipt!.blockNumber);
    expect(data.blockTimestamp).to.equal(new Date(block!.timestamp * 1000).toISOString());
  });

  it('reads many receipts and blocks in one batch request each, as single reads would, and verifies a pass of payments', async () => {
    const hashes: string[] = [];
    for (let i = 0; i < 6; i++) hashes.push(await alice.pay('USDC', shop.address, '1'));
    const rpc = new ChainRpc({
      chain: devnet.registry().chains.find((c) => c.name === 'BASE')!,
      timeoutMs: 5_000,
    });
    try {
      const unknown = randomTxHash();
      const batch = await rpc.receipts([...hashes, unknown]);
      expect(batch.size).to.equal(7);
      expect(batch.get(unknown)).to.equal(null);
      for (const hash of hashes) expect(batch.get(hash)).to.deep.equal(await rpc.receipt(hash));
      const numbers = [...new Set(hashes.map((hash) => batch.get(hash)!.blockNumber))];
      const beyond = numbers[numbers.length - 1]! + 1_000;
      const blocks = await rpc.blocks([...numbers, beyond]);
      expect(blocks.size).to.equal(numbers.length + 1);
      expect(blocks.get(beyond)).to.equal(null);
      for (const n of numbers) expect(blocks.get(n)).to.deep.equal(await rpc.block(n));
    } finally {
      rpc.destroy();
    }
    const ids = await Promise.all(
      hashes.map((txHash) =>
        h.publishPayment({ merchant: shop, txHash, amount: '1', fromAddress: alice.address }),
      ),
    );
    for (const id of ids) expect((await h.verdict(id)).type).to.equal('chain.payment.verified');
  });

  it('verifies an EURC payment, and an overpayment with the amount actually received', async () => {
    const eurcTx = await bob.pay('EURC', shop.address, '9.99');
    const eurc = await h.publishPayment({
      merchant: shop,
      txHash: eurcTx,
      amount: '9.99',
      currency: 'EURC',
      fromAddress: bob.address,
    });
    const overTx = await alice.pay('USDC', shop.address, '15');
    const over = await h.publishPayment({
      merchant: shop,
      txHash: overTx,
      amount: '12.5',
      fromAddress: alice.address,
    });
    expect((await onlyVerdict(eurc)).data).to.include({ token: 'EURC', receivedAmount: '9.990000' });
    const overVerdict = await onlyVerdict(over);
    expect(overVerdict.type).to.equal('chain.payment.verified');
    expect(overVerdict.data.receivedAmount).to.equal('15.000000');
  });

  it('rejects a reverted transaction (tx_reverted)', async () => {
    const tooMuch = (await alice.balance('USDC')) + 1n;
    // A fixed gas limit skips estimation, so the transfer is mined and reverts on-chain.
    const txHash = await alice.pay('USDC', shop.address, tooMuch, 120_000n);
    expect((await alice.provider.getTransactionReceipt(txHash))!.status).to.equal(0);
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '1',
      fromAddress: alice.address,
    });
    await expectRejected(paymentId, 'tx_reverted');
  });

  it('rejects EURC sent for a USDC payment (wrong_token)', async () => {
    const txHash = await alice.pay('EURC', shop.address, '5');
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '5',
      currency: 'USDC',
      fromAddress: alice.address,
    });
    const verdict = await expectRejected(paymentId, 'wrong_token');
    expect(verdict.data.detail).to.match(/EURC, not USDC/);
  });

  it('rejects USDC sent to another address (wrong_recipient)', async () => {
    const txHash = await alice.pay('USDC', bob.address, '5');
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '5',
      fromAddress: alice.address,
    });
    await expectRejected(paymentId, 'wrong_recipient');
  });

  it('rejects a payment whose transfer came from someone else (wrong_sender)', async () => {
    const txHash = await bob.pay('USDC', shop.address, '5');
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '5',
      fromAddress: alice.address,
    });
    await expectRejected(paymentId, 'wrong_sender');
  });

  it('rejects an underpayment and keeps the amount received (underpaid)', async () => {
    const txHash = await alice.pay('USDC', shop.address, '10');
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '12.5',
      fromAddress: alice.address,
    });
    const verdict = await expectRejected(paymentId, 'underpaid', '10.000000');
    expect(verdict.data.detail).to.match(/received 10\.000000 USDC, expected 12\.500000/);
  });

  it('holds a payment to its amount whatever smaller expectedAmount the reporter names (underpaid)', async () => {
    const txHash = await alice.pay('USDC', shop.address, '0.02');
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '5',
      expectedAmount: '0.02',
      fromAddress: alice.address,
    });
    const verdict = await expectRejected(paymentId, 'underpaid', '0.020000');
    expect(verdict.data.detail).to.match(/received 0\.020000 USDC, expected 5\.000000/);
  });

  it('holds a QR-tagged payment to its expectedAmount when that is more than the amount', async () => {
    const short = await alice.pay('USDC', shop.address, '5');
    const shortId = await h.publishPayment({
      merchant: shop,
      txHash: short,
      amount: '5',
      expectedAmount: '5.001234',
      fromAddress: alice.address,
    });
    await expectRejected(shortId, 'underpaid', '5.000000');
    const tagged = await alice.pay('USDC', shop.address, '5.001234');
    const taggedId = await h.publishPayment({
      merchant: shop,
      txHash: tagged,
      amount: '5',
      expectedAmount: '5.001234',
      fromAddress: alice.address,
    });
    const verdict = await onlyVerdict(taggedId);
    expect(verdict.type).to.equal('chain.payment.verified');
    expect(verdict.data.receivedAmount).to.equal('5.001234');
  });

  it('rejects a chain id the registry does not serve and a chain that is not the wallet chain (chain_mismatch)', async () => {
    const onEth = new Customer(devnet.chain('ETH'), devnet.customers[2]!);
    try {
      const ethTx = await onEth.pay('USDC', shop.address, '5');
      const wrongChain = await h.publishPayment({
        merchant: shop,
        txHash: ethTx,
        amount: '5',
        chainId: devnet.chain('ETH').chainId,
        sourceChain: 'ETH',
        fromAddress: onEth.address,
      });
      const unknown = await h.publishPayment({
        merchant: shop,
        txHash: randomTxHash(),
        amount: '5',
        chainId: 42161,
        sourceChain: 'ARB',
        fromAddress: alice.address,
      });
      expect((await expectRejected(wrongChain, 'chain_mismatch')).data.detail).to.match(/wallet is on BASE/);
      expect((await expectRejected(unknown, 'chain_mismatch')).data.detail).to.match(/42161 is not served/);
    } finally {
      onEth.destroy();
    }
  });

  it('rejects a hash that never appears on-chain once TX_NOT_FOUND_AFTER_MS has passed (tx_not_found)', async () => {
    const started = Date.now();
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash: randomTxHash(),
      amount: '5',
      fromAddress: alice.address,
    });
    // A merchant this service holds no wallet for is waited for just as long, then refused.
    const txHash = await alice.pay('USDC', shop.address, '5');
    const stranger = { ...shop, merchantId: randomUUID() };
    const noWallet = await h.publishPayment({
      merchant: stranger,
      txHash,
      amount: '5',
      fromAddress: alice.address,
    });
    await expectRejected(paymentId, 'tx_not_found');
    expect(Date.now() - started).to.be.at.least(1_400);
    const row = await h.db('verifications').where({ payment_id: paymentId }).first();
    expect(row.check_count).to.be.greaterThan(1); // re-checked with backoff before giving up
    expect((await expectRejected(noWallet, 'wrong_recipient')).data.detail).to.match(/no wallet/);
  });

  it('rejects a transaction mined before the checkout session was created (session_expired_before_tx)', async () => {
    const txHash = await alice.pay('USDC', shop.address, '7');
    const sessionCreatedAt = new Date(Date.now() + 60_000).toISOString();
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '7',
      fromAddress: alice.address,
      sessionCreatedAt,
    });
    const verdict = await expectRejected(paymentId, 'session_expired_before_tx');
    expect(verdict.data.detail).to.match(/before the checkout session was created/);
    // The same kind of transfer made after its session is fine.
    const laterTx = await alice.pay('USDC', shop.address, '7');
    const ok = await h.publishPayment({
      merchant: shop,
      txHash: laterTx,
      amount: '7',
      fromAddress: alice.address,
      sessionCreatedAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect((await onlyVerdict(ok)).type).to.equal('chain.payment.verified');
  });

  it('lets a transaction pay one payment only (already_claimed)', async () => {
    const txHash = await alice.pay('USDC', shop.address, '3');
    const first = await h.publishPayment({ merchant: shop, txHash, amount: '3', fromAddress: alice.address });
    expect((await onlyVerdict(first)).type).to.equal('chain.payment.verified');
    const second = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '3',
      fromAddress: alice.address,
    });
    const verdict = await expectRejected(second, 'already_claimed');
    expect(verdict.data.detail).to.include(first);
  });

  it('keeps the transaction of an underpaid payment to it, so what arrived is counted once', async () => {
    const txHash = await alice.pay('USDC', shop.address, '2');
    const short = await h.publishPayment({ merchant: shop, txHash, amount: '5', fromAddress: alice.address });
    await expectRejected(short, 'underpaid', '2.000000');
    const [claim] = await h.db('tx_claims').where({ tx_hash: txHash.toLowerCase() });
    expect(claim?.payment_id).to.equal(short);
    // A second report asking only what arrived would count the same 2 USDC again.
    const second = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '2',
      fromAddress: alice.address,
    });
    const verdict = await expectRejected(second, 'already_claimed');
    expect(verdict.data.detail).to.include(short);
  });

  it('decides a pass of payments together, each once, with one transaction paying one payment', async () => {
    const hashes: string[] = [];
    for (let i = 0; i < 10; i++) hashes.push(await alice.pay('USDC', shop.address, '1'));
    // Reported together, so that one pass leases them all; the last two name the same transaction.
    const ids = await Promise.all(
      [...hashes, hashes[9]!].map((txHash) =>
        h.publishPayment({ merchant: shop, txHash, amount: '1', fromAddress: alice.address }),
      ),
    );
    const verdicts = await Promise.all(ids.map(onlyVerdict));
    const types = verdicts.map((v) => v.type);
    expect(types.slice(0, 9)).to.deep.equal(Array(9).fill('chain.payment.verified'));
    const lastTwo = verdicts.slice(9).map((v) => [v.type, v.data.reason ?? 'ok']);
    expect(lastTwo).to.have.deep.members([
      ['chain.payment.verified', 'ok'],
      ['chain.payment.rejected', 'already_claimed'],
    ]);
    const claims = await h.db('tx_claims').whereIn('tx_hash', hashes);
    expect(claims).to.have.length(10);
    const decided = await h.db('verifications').whereIn('payment_id', ids).whereNot({ status: 'pending' });
    expect(decided).to.have.length(11);
  });

  it('leaves cross-chain payments to the CCTP flow', async () => {
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash: randomTxHash(),
      amount: '5',
      fromAddress: alice.address,
      isCrossChain: true,
    });
    const txHash = await alice.pay('USDC', shop.address, units('1'));
    const marker = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '1',
      fromAddress: alice.address,
    });
    await onlyVerdict(marker); // processed after the cross-chain one (same queue, FIFO)
    expect(await h.db('verifications').where({ payment_id: paymentId }).first()).to.equal(undefined);
    expect(h.events.messages.some((e) => e.data?.paymentId === paymentId)).to.equal(false);
  });

  it('counts verdicts by reason and measures the latency from payment creation', async () => {
    const text = await h.metrics();
    expect(
      metricValue(text, 'chain_verdicts_total', { chain: 'BASE', verdict: 'verified', reason: 'ok' }),
    ).to.be.at.least(5);
    for (const reason of ['tx_reverted', 'wrong_token', 'wrong_sender', 'tx_not_found']) {
      expect(metricValue(text, 'chain_verdicts_total', { chain: 'BASE', reason }), reason).to.equal(1);
    }
    expect(metricValue(text, 'chain_verdicts_total', { chain: 'BASE', reason: 'underpaid' })).to.equal(4);
    const misdirected = metricValue(text, 'chain_verdicts_total', {
      chain: 'BASE',
      reason: 'wrong_recipient',
    });
    expect(misdirected).to.equal(2);
    expect(
      metricValue(text, 'chain_verification_latency_seconds_count', { verdict: 'verified' }),
    ).to.be.at.least(5);
    expect(
      metricValue(text, 'chain_verification_latency_seconds_count', { verdict: 'rejected' }),
    ).to.be.at.least(8);
  });

  it('reports the payments waiting for a verdict and the age of the oldest, per chain', async () => {
    // A hash that is not on the chain waits (TX_NOT_FOUND_AFTER_MS) before it is rejected. Last in
    // the file: its verdict would change the counts the test above reads.
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash: randomTxHash(),
      amount: '1',
      fromAddress: alice.address,
    });
    const waiting = await waitFor(async () => {
      const text = await h.metrics();
      return metricValue(text, 'chain_pending_verifications', { chain: 'BASE' }) >= 1 && text;
    }, 'the pending payment counted');
    expect(metricValue(waiting, 'chain_oldest_pending_verification_seconds', { chain: 'BASE' })).to.be.above(
      0,
    );
    expect(metricValue(waiting, 'chain_pending_verifications', { chain: 'ETH' })).to.equal(0);
    await h.verdict(paymentId);
    const after = await h.metrics();
    expect(metricValue(after, 'chain_pending_verifications', { chain: 'BASE' })).to.equal(0);
    expect(metricValue(after, 'chain_oldest_pending_verification_seconds', { chain: 'BASE' })).to.equal(0);
  });
});
