import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { BalanceTransactionListResponse } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { walletBalanceAt } from '../../src/ledger/ledger-repo.js';
import { Customer, units } from '../support/chain.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import { ChainProbe, devnetRelayerKeys, requestTransfer, transferOutcome } from '../support/transfers.js';

describe('the ledger: journals written with every money movement (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(40_000);
  let devnet: Devnet;
  let h: Harness;
  let shop: Merchant;
  let alice: Customer;
  let bob: Customer;
  let base: ChainProbe;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 2 });
    h = await startHarness({
      registry: devnet.registry(),
      env: {
        TX_NOT_FOUND_AFTER_MS: '1500',
        RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet, ['BASE']),
        TRANSFER_POLL_MS: '50',
      },
    });
    shop = await h.createMerchant('BASE');
    alice = new Customer(devnet.chain('BASE'), devnet.customers[0]!);
    bob = new Customer(devnet.chain('BASE'), devnet.customers[1]!);
    base = new ChainProbe(devnet.chain('BASE'));
    // The scanner starts from the head it first sees: let it see one before any money moves.
    await waitFor(() => h.db('chain_cursors').where({ chain_id: shop.chainId }).first());
  });
  after(async () => {
    alice?.destroy();
    bob?.destroy();
    base?.destroy();
    await h?.close();
    await devnet?.stop();
  });

  const journals = (where: Record<string, unknown>) =>
    h.db('ledger_journals').where(where).orderBy('created_at');
  const entries = (journalId: string) =>
    h.db('ledger_entries').where({ journal_id: journalId }).orderBy('account');
  const lines = async (journalId: string) =>
    Object.fromEntries((await entries(journalId)).map((e) => [e.account, e.amount]));
  const logIndexOf = async (txHash: string) => {
    const receipt = await base.receipt(txHash);
    return Number((receipt as unknown as { logs: Array<{ logIndex: string }> }).logs[0]!.logIndex);
  };

  /**
   * Payments announced before their transactions are mined, so the verifier (not the scanner) is
   * the first to see them. Returns each payment's id and transaction.
   */
  const announcedPayments = async (
    pays: Array<{ from: Customer; amount: string; claim?: { amount: string; fromAddress: string } }>,
  ) => {
    await base.setAutomine(false);
    try {
      const sent: Array<{ paymentId: string; txHash: string }> = [];
      for (const p of pays) {
        const tx = (await p.from.token('USDC').getFunction('transfer')(shop.address, units(p.amount))) as {
          hash: string;
        };
        const paymentId = await h.publishPayment({
          merchant: shop,
          txHash: tx.hash,
          amount: p.claim?.amount ?? p.amount,
          fromAddress: p.claim?.fromAddress ?? p.from.address,
        });
        sent.push({ paymentId, txHash: tx.hash });
      }
      await waitFor(async () => {
        const n = await h
          .db('verifications')
          .whereIn(
            'payment_id',
            sent.map((s) => s.paymentId),
          )
          .count({ n: '*' });
        return Number(n[0]!.n) === sent.length || undefined;
      });
      return sent;
    } finally {
      await base.mine(1);
      await base.setAutomine(true);
    }
  };

  it('records a verified payment (single and batched verdicts) as wallet + against customer_payments', async () => {
    const [a, b] = await announcedPayments([
      { from: alice, amount: '25' },
      { from: alice, amount: '7.25' },
    ]);
    const [tx1, p1, p2] = [a!.txHash, a!.paymentId, b!.paymentId];
    expect((await h.verdict(p1!)).type).to.equal('chain.payment.verified');
    expect((await h.verdict(p2!)).type).to.equal('chain.payment.verified');
    const [j] = await journals({ payment_id: p1 });
    expect(j).to.include({
      type: 'payment',
      key: `transfer-in:${shop.chainId}:${tx1.toLowerCase()}:${await logIndexOf(tx1)}`,
      merchant_id: shop.merchantId,
      token: 'USDC',
      blockchain: 'BASE',
      tx_hash: tx1.toLowerCase(),
      wallet_address: shop.address.toLowerCase(),
    });
    expect(await lines(j.id)).to.deep.equal({ customer_payments: '-25000000', wallet: '25000000' });
    const [j2] = await journals({ payment_id: p2 });
    expect(await lines(j2.id)).to.deep.equal({ customer_payments: '-7250000', wallet: '7250000' });
  });

  it('records an underpaid payment against the payment, and tokens from another sender as unattributed', async () => {
    const [shortPay, bobPay] = await announcedPayments([
      { from: alice, amount: '3', claim: { amount: '5', fromAddress: alice.address } },
      { from: bob, amount: '2', claim: { amount: '2', fromAddress: alice.address } },
    ]);
    const short = shortPay!.paymentId;
    expect((await h.verdict(short)).data.reason).to.equal('underpaid');
    const [underpaid] = await journals({ payment_id: short });
    expect(underpaid.type).to.equal('payment');
    expect(await lines(underpaid.id)).to.deep.equal({ customer_payments: '-3000000', wallet: '3000000' });

    const [bobTx, claimed] = [bobPay!.txHash, bobPay!.paymentId];
    expect((await h.verdict(claimed)).data.reason).to.equal('wrong_sender');
    const [stray] = await journals({ tx_hash: bobTx.toLowerCase() });
    expect(stray).to.include({ type: 'unattributed', payment_id: null });
    expect(await lines(stray.id)).to.deep.equal({ unattributed: '-2000000', wallet: '2000000' });
  });

  it('records a transfer the scanner finds as unattributed, then attributes it to its payment without counting it twice', async () => {
    const txHash = await alice.pay('USDC', shop.address, '4');
    await devnet.mine('BASE', 3);
    const found = await waitFor(() => journals({ tx_hash: txHash.toLowerCase() }).first());
    expect(found.type).to.equal('unattributed');
    const paymentId = await h.publishPayment({
      merchant: shop,
      txHash,
      amount: '4',
      fromAddress: alice.address,
    });
    expect((await h.verdict(paymentId)).type).to.equal('chain.payment.verified');
    const all = await journals({ tx_hash: txHash.toLowerCase() });
    expect(all.map((j) => j.type)).to.deep.equal(['unattributed', 'attribution']);
    expect(all[1]).to.include({
      payment_id: paymentId,
      key: `attribution:${shop.chainId}:${txHash.toLowerCase()}:${await logIndexOf(txHash)}`,
    });
    expect(await lines(all[1].id)).to.deep.equal({
      customer_payments: '-4000000',
      unattributed: '4000000',
      wallet: '0',
    });
  });

  it('records refunds, withdrawals and their fees leaving the wallet', async () => {
    const refundId = randomUUID();
    const withdrawalId = randomUUID();
    const keys = [
      await requestTransfer(h, {
        merchant: shop,
        toAddress: alice.address,
        amount: '1.5',
        idempotencyKey: refundId,
      }),
      await requestTransfer(h, {
        merchant: shop,
        toAddress: bob.address,
        amount: '10',
        purpose: 'withdrawal',
        idempotencyKey: `withdrawal:${withdrawalId}:net`,
      }),
      await requestTransfer(h, {
        merchant: shop,
        toAddress: bob.address,
        amount: '0.25',
        purpose: 'withdrawal',
        idempotencyKey: `withdrawal:${withdrawalId}:fee`,
      }),
    ];
    for (const key of keys) expect((await transferOutcome(h, key)).type).to.equal('transfer.confirmed');
    const [refund] = await journals({ refund_id: refundId });
    expect(refund).to.include({ type: 'refund', key: `transfer:${refundId}` });
    expect(await lines(refund.id)).to.deep.equal({ refunds: '1500000', wallet: '-1500000' });
    const legs = await journals({ withdrawal_id: withdrawalId });
    expect(legs.map((j) => j.type).sort()).to.deep.equal(['withdrawal', 'withdrawal_fee']);
    const fee = legs.find((j) => j.type === 'withdrawal_fee');
    expect(await lines(fee.id)).to.deep.equal({ service_fees: '250000', wallet: '-250000' });
  });

  it('ends with the wallet account equal to balanceOf at the head, entries and balance_after consistent', async () => {
    const head = await devnet.mine('BASE', 1);
    await devnet.mine('BASE', 5);
    await waitFor(async () => {
      const c = await h.db('chain_cursors').where({ chain_id: shop.chainId }).first();
      return Number(c.last_scanned_block) >= head;
    });
    const ledger = await walletBalanceAt(
      h.db,
      { chainId: shop.chainId, token: 'USDC', walletAddress: shop.address },
      head,
    );
    expect(ledger).to.equal(await base.balance('USDC', shop.address));
    expect(ledger).to.equal(
      units('25') + units('7.25') + units('3') + units('2') + units('4') - units('11.75'),
    );
    const last = await h
      .db('ledger_entries')
      .where({ wallet_address: shop.address.toLowerCase(), account: 'wallet', token: 'USDC' })
      .orderBy('seq', 'desc')
      .first();
    expect(BigInt(last.balance_after)).to.equal(ledger);
    const sums = await h
      .db('ledger_entries')
      .select('journal_id')
      .sum({ total: 'amount' })
      .groupBy('journal_id');
    for (const s of sums) expect(s.total).to.equal('0');
  });

  it('GET /balance-transactions/api/list: the wallet entries newest first, signed, filtered, paged; only the caller’s', async () => {
    const res = await h.call('/balance-transactions/api/list?limit=3', { merchantId: shop.merchantId });
    expect(res.status).to.equal(200);
    expect(BalanceTransactionListResponse.safeParse(res.body).success, JSON.stringify(res.body)).to.equal(
      true,
    );
    const { balance_transactions: rows, total, limit, offset } = res.body.data;
    expect({ total, limit, offset }).to.deep.equal({ total: 9, limit: 3, offset: 0 });
    expect(rows.map((r: { type: string }) => r.type).sort()).to.deep.equal([
      'refund',
      'withdrawal',
      'withdrawal_fee',
    ]);
    const fee = rows.find((r: { type: string }) => r.type === 'withdrawal_fee');
    expect(fee).to.include({
      amount: '-0.250000',
      currency: 'USDC',
      blockchain: 'BASE',
      payment_id: null,
      refund_id: null,
    });
    expect(rows[0].balance_after).to.equal('29.500000');

    const attributed = await h.call('/balance-transactions/api/list?type=attribution', {
      merchantId: shop.merchantId,
    });
    expect(attributed.body.data.total).to.equal(1);
    expect(attributed.body.data.balance_transactions[0]).to.include({ amount: '0.000000' });
    const paymentId = attributed.body.data.balance_transactions[0].payment_id;
    const byPayment = await h.call(`/balance-transactions/api/list?payment_id=${paymentId}`, {
      merchantId: shop.merchantId,
    });
    expect(byPayment.body.data.balance_transactions.map((r: { type: string }) => r.type)).to.deep.equal([
      'attribution',
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const dated = await h.call(
      `/balance-transactions/api/list?startDate=${today}&endDate=${today}&currency=USDC`,
      {
        merchantId: shop.merchantId,
      },
    );
    expect(dated.body.data.total).to.equal(9);
    const future = await h.call('/balance-transactions/api/list?startDate=2999-01-01', {
      merchantId: shop.merchantId,
    });
    expect(future.body.data.total).to.equal(0);

    const other = await h.call('/balance-transactions/api/list', { merchantId: randomUUID() });
    expect(other.body.data).to.deep.include({ balance_transactions: [], total: 0 });
    const dashboard = await h.call('/balance-transactions', { caller: 'user', merchantId: shop.merchantId });
    expect(dashboard.body.data.total).to.equal(9);
    expect((await h.call('/balance-transactions', { merchantId: shop.merchantId })).status).to.equal(403);
  });

  it('refuses bad filters with 400 in the envelope', async () => {
    for (const q of [
      'type=gift',
      'limit=0',
      'limit=201',
      'payment_id=nope',
      'startDate=2025-02-01&endDate=2025-01-01',
    ]) {
      const res = await h.call(`/balance-transactions/api/list?${q}`, { merchantId: shop.merchantId });
      expect(res.status, q).to.equal(400);
      expect(res.body).to.include({ success: false });
      expect(res.body.error, q).to.be.a('string');
      expect(res.body.details, q).to.be.an('array');
    }
  });

  it('exports CSV (format=csv or Accept: text/csv) as an attachment, one row per entry', async () => {
    const res = await h.call('/balance-transactions/api/list?format=csv&type=payment', {
      merchantId: shop.merchantId,
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/csv/);
    expect(res.headers.get('content-disposition')).to.match(
      /^attachment; filename="balance-transactions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = (res.body as string).split('\r\n');
    expect(lines[0]).to.equal(
      'id,created_at,type,amount,currency,blockchain,tx_hash,block_number,payment_id,refund_id,withdrawal_id,balance_after',
    );
    expect(lines.at(-1)).to.equal('');
    expect(lines.slice(1, -1)).to.have.length(3);
    expect(lines[1]!.split(',')).to.have.length(12);
    const viaAccept = await h.call('/balance-transactions/api/list?type=refund', {
      merchantId: shop.merchantId,
      headers: { accept: 'text/csv' },
    });
    expect(viaAccept.body)
      .to.be.a('string')
      .and.match(/,refund,-1\.500000,USDC,BASE,0x/);
  });
});
