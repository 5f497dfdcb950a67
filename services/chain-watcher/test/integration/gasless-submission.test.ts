import { expect } from 'chai';
import { parseEther, type Wallet } from 'ethers';
import { ChainPaymentRelayedData, ChainPaymentVerifiedData } from '@stablepay/contracts';
import { metricValue, waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { units } from '../support/chain.js';
import {
  checkAuthorization,
  eventsAbout,
  freshWallet,
  nowSeconds,
  publishAuthorization,
  signAuthorization,
  submitAuthorization,
} from '../support/gasless.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import { ChainProbe, devnetRelayerKeys } from '../support/transfers.js';

describe('gasless payments: the relay submits a customer’s authorization once (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let h: Harness;
  let base: ChainProbe;
  let shop: Merchant;
  let relayer: string;
  const env = (devnet: Devnet) => ({
    RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet),
    TRANSFER_POLL_MS: '50',
    TRANSFER_MAX_BACKOFF_MS: '300',
    TRANSFER_LEASE_MS: '2000',
    RECONCILE_INTERVAL_MS: '1000',
  });

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 0 });
    h = await startHarness({ registry: devnet.registry(), env: env(devnet) });
    base = new ChainProbe(devnet.chain('BASE'));
    relayer = devnet.relayers.BASE!.address;
    shop = await h.createMerchant('BASE');
  });
  after(async () => {
    base?.destroy();
    await h?.close();
    await devnet?.stop();
  });

  /** A customer holding only USDC. */
  const customer = async (usdc: string): Promise<Wallet> => {
    const payer = freshWallet();
    await devnet.fund('BASE', payer.address, { USDC: units(usdc) });
    return payer;
  };

  const transfersIn = async (txHash: string) =>
    (await base.transfersTo('USDC', shop.address)).filter((t) => t.txHash.toLowerCase() === txHash);

  it('sends the authorization once and publishes chain.payment.relayed, then chain.payment.verified', async () => {
    const payer = await customer('50');
    const authorization = await signAuthorization(base, {
      signer: payer,
      to: shop.address,
      value: units('10.01'),
    });
    expect((await checkAuthorization(h, shop, authorization)).status).to.equal(200);
    const before = await base.balance('USDC', shop.address);
    const paymentId = await publishAuthorization(h, shop, authorization, { copies: 2 });

    const relayed = await h.event(
      (e) => e.type === 'chain.payment.relayed' && e.data.paymentId === paymentId,
    );
    expect(ChainPaymentRelayedData.parse(relayed.data)).to.deep.include({
      merchantId: shop.merchantId,
      chainId: shop.chainId,
      relayer,
    });
    const verdict = await h.verdict(paymentId);
    expect(verdict.type, JSON.stringify(verdict.data)).to.equal('chain.payment.verified');
    expect(ChainPaymentVerifiedData.parse(verdict.data)).to.deep.include({
      txHash: relayed.data.txHash,
      fromAddress: payer.address,
      toAddress: shop.address,
      receivedAmount: '10.010000',
    });
    await h.events.drain();
    expect(eventsAbout(h, paymentId).map((e) => e.type)).to.have.members([
      'chain.payment.relayed',
      'chain.payment.verified',
    ]);
    expect(await base.balance('USDC', shop.address)).to.equal(before + units('10.01'));
    expect(await transfersIn(relayed.data.txHash)).to.have.length(1);
    // The customer spent no gas: they never had any.
    expect(await base.native(payer.address)).to.equal(0n);
    expect(await h.db('gasless_relay_transactions').where({ payment_id: paymentId })).to.have.length(1);
    // The reservation became what the relay really paid.
    const usage = await h.db('gasless_gas_usage').where({ merchant_id: shop.merchantId }).first();
    expect(usage.reserved_wei).to.equal('0');
    expect(BigInt(usage.spent_wei) > 0n).to.equal(true);
    const metrics = await h.metrics();
    expect(
      metricValue(metrics, 'chain_gasless_submissions_total', { chain: 'BASE', outcome: 'relayed' }),
    ).to.equal(1);
  });

  it("estimates the relay's gas for a quote on the chain, enough for a real submission to a new wallet", async () => {
    // A merchant whose wallet never held USDC: the submission writes its balance from zero, the dearest case.
    const fresh = await h.createMerchant('BASE');
    const asked = await h.call(
      `/internal/gasless/gas-estimate?chainId=${fresh.chainId}&token=USDC&to=${fresh.address}`,
      { caller: 'service' },
    );
    expect(asked.status, JSON.stringify(asked.body)).to.equal(200);
    const estimate = BigInt(asked.body.data.submitGasUnits);
    expect(asked.body.data.burnGasUnits).to.equal('0');
    const payer = await customer('20');
    const authorization = await signAuthorization(base, {
      signer: payer,
      to: fresh.address,
      value: units('5'),
    });
    const paymentId = await publishAuthorization(h, fresh, authorization);
    const verdict = await h.verdict(paymentId);
    expect(verdict.type, JSON.stringify(verdict.data)).to.equal('chain.payment.verified');
    const receipt = await base.receipt(ChainPaymentVerifiedData.parse(verdict.data).txHash);
    const used = BigInt(receipt!.gasUsed);
    // The fixed 90,000 the quote used to price is short of what the relay really spends here.
    expect(used > 90_000n, `used ${used}`).to.equal(true);
    expect(estimate >= used, `estimate ${estimate}, used ${used}`).to.equal(true);
    // …and the estimate stays within the relay's gas-limit margin of it, not a blanket figure.
    expect(estimate <= (used * 3n) / 2n, `estimate ${estimate}, used ${used}`).to.equal(true);
    // Across chains the quote adds the approval and the burn.
    const across = await h.call(
      `/internal/gasless/gas-estimate?chainId=${fresh.chainId}&token=USDC&to=${relayer}&destinationChainId=1`,
      { caller: 'service' },
    );
    expect(across.body.data.burnGasUnits).to.equal('200000');
  });

  it('collects a network fee the merchant bears from the merchant wallet: a network_fee ledger entry, listed, exported, reconciled', async () => {
    const shopPays = await h.createMerchant('BASE');
    const payer = await customer('20');
    // The merchant bears the fee: the customer authorises the amount alone.
    const authorization = await signAuthorization(base, {
      signer: payer,
      to: shopPays.address,
      value: units('10'),
    });
    const relayBefore = await base.balance('USDC', relayer);
    const paymentId = await publishAuthorization(h, shopPays, authorization, {
      amount: '10.000000',
      networkFee: '0.012345',
      feeBearer: 'merchant',
    });
    const verdict = await h.verdict(paymentId);
    expect(verdict.type, JSON.stringify(verdict.data)).to.equal('chain.payment.verified');
    const fee = await waitFor(async () => {
      const t = await h
        .db('transfers')
        .where({ idempotency_key: `network-fee:${paymentId}` })
        .first();
      return t?.status === 'confirmed' ? t : undefined;
    }, 30_000);
    expect(fee).to.include({ purpose: 'network_fee', merchant_id: shopPays.merchantId });
    // On the chain: the fee left the merchant wallet for the relay that paid the gas.
    expect(await base.balance('USDC', shopPays.address)).to.equal(units('10') - units('0.012345'));
    expect((await base.balance('USDC', relayer)) - relayBefore).to.equal(units('0.012345'));
    // The relay paid the gas of both its transactions, the submission and the fee's transfer: both
    // count against the merchant's budget on BASE and in the payment's gas on BASE.
    const paid = async (hashes: string[]) => {
      let wei = 0n;
      for (const hash of hashes) {
        const receipt = await base.receipt(hash);
        if (receipt) wei += BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
      }
      return wei;
    };
    const submitted = await h.db('gasless_relay_transactions').where({ payment_id: paymentId });
    const attempts = await h.db('transfer_attempts').where({ transfer_id: fee.id });
    const submitWei = await paid(submitted.map((t) => t.tx_hash));
    const feeWei = await paid(attempts.map((t) => t.tx_hash));
    expect(feeWei > 0n).to.equal(true);
    const usage = await h.db('gasless_gas_usage').where({ merchant_id: shopPays.merchantId });
    expect(usage.map((u) => [u.chain_id, BigInt(u.spent_wei), BigInt(u.reserved_wei)])).to.deep.equal([
      [shopPays.chainId, submitWei + feeWei, 0n],
    ]);
    const row = await h.db('gasless_payments').where({ payment_id: paymentId }).first();
    expect(BigInt(row.gas_spent_wei)).to.equal(submitWei + feeWei);
    expect(row.destination_gas_spent_wei).to.equal(null);
    const listed = await waitFor(async () => {
      const res = await h.call(`/balance-transactions/api/list?payment_id=${paymentId}`, {
        merchantId: shopPays.merchantId,
      });
      const rows = res.body.data.balance_transactions as Array<Record<string, unknown>>;
      return rows.length === 2 ? rows : undefined;
    });
    // Newest first: the fee, then the payment (or its attribution, when the scanner saw the arrival first).
    expect(listed.map((r) => [r.type, r.amount, r.balance_after, r.tx_hash])[0]).to.deep.equal([
      'network_fee',
      '-0.012345',
      '9.987655',
      fee.tx_hash,
    ]);
    expect(listed[1]).to.include({ balance_after: '10.000000', tx_hash: verdict.data.txHash });
    const csv = await h.call('/balance-transactions/api/list?format=csv&type=network_fee', {
      merchantId: shopPays.merchantId,
    });
    expect(csv.body as string).to.include(`,network_fee,-0.012345,USDC,BASE,${fee.tx_hash}`);
    // The wallet account still matches balanceOf.
    const since = new Date();
    const run = await waitFor(async () => {
      const res = await h.call('/reconciliation/api/latest', { merchantId: shopPays.merchantId });
      const r = res.body.data;
      return r.checked_at !== null && new Date(r.checked_at) > since ? r : undefined;
    }, 20_000);
    expect(run.discrepancies).to.equal(0);
    expect(run.wallets.find((w: { token: string }) => w.token === 'USDC')).to.include({
      status: 'agrees',
      ledger_balance: '9.987655',
      onchain_balance: '9.987655',
    });
  });

  it('verifies a payment whose authorization someone else submitted first, and sends nothing', async () => {
    const payer = await customer('20');
    const authorization = await signAuthorization(base, {
      signer: payer,
      to: shop.address,
      value: units('5.01'),
    });
    const frontRunner = freshWallet();
    await devnet.fund('BASE', frontRunner.address, { native: parseEther('1') });
    const theirs = await submitAuthorization(base, frontRunner, authorization);
    const nonceBefore = await base.nonce(relayer, 'pending');

    const paymentId = await publishAuthorization(h, shop, authorization);
    const verdict = await h.verdict(paymentId);
    expect(verdict.type, JSON.stringify(verdict.data)).to.equal('chain.payment.verified');
    expect(verdict.data).to.deep.include({ txHash: theirs, receivedAmount: '5.010000' });
    await h.events.drain();
    expect(eventsAbout(h, paymentId).map((e) => e.type)).to.deep.equal(['chain.payment.verified']);
    expect(await h.db('gasless_relay_transactions').where({ payment_id: paymentId })).to.deep.equal([]);
    expect(await base.nonce(relayer, 'pending')).to.equal(nonceBefore);
  });

  it('verifies a payment front-run while the relay’s own transaction waits in the pool; the relay’s nonce is still used', async () => {
    const payer = await customer('20');
    const authorization = await signAuthorization(base, {
      signer: payer,
      to: shop.address,
      value: units('6.01'),
    });
    const frontRunner = freshWallet();
    await devnet.fund('BASE', frontRunner.address, { native: parseEther('1') });
    const nonceBefore = await base.nonce(relayer);
    await base.setAutomine(false);
    let theirs: string;
    let paymentId: string;
    try {
      paymentId = await publishAuthorization(h, shop, authorization);
      const ours = await waitFor(
        async () => {
          const [row] = await h.db('gasless_relay_transactions').where({ payment_id: paymentId });
          return row?.broadcast_at ? (row.tx_hash as string) : undefined;
        },
        15_000,
        'the relay’s transaction in the pool',
      );
      // Someone else submits the same authorization with a higher tip: it goes first in the block.
      theirs = await submitAuthorization(base, frontRunner, authorization, {
        mined: false,
        maxPriorityFeePerGas: 500_000_000_000n,
        maxFeePerGas: 1_000_000_000_000n,
      });
      expect(await base.pooled()).to.include.members([ours, theirs]);
      await base.mine();
    } finally {
      await base.setAutomine(true);
    }
    const verdict = await h.verdict(paymentId);
    expect(verdict.type, JSON.stringify(verdict.data)).to.equal('chain.payment.verified');
    expect(verdict.data).to.deep.include({ txHash: theirs, receivedAmount: '6.010000' });
    expect(await transfersIn(theirs)).to.have.length(1);
    // The relay's transaction reverted in the same block: its nonce is used, nothing waits behind it.
    const [ours] = await h.db('gasless_relay_transactions').where({ payment_id: paymentId });
    expect((await base.receipt(ours.tx_hash))!.status).to.equal('0x0');
    expect(await base.nonce(relayer)).to.equal(nonceBefore + 1);
    const row = await h.db('gasless_payments').where({ payment_id: paymentId }).first();
    expect(row).to.deep.include({ step: 'handed_over', used_tx_hash: theirs });
    expect(BigInt(row.gas_spent_wei) > 0n).to.equal(true);
  });

  it('rejects a payment whose authorization expired unused', async () => {
    // The payer holds less than they signed for: the token refuses the submission until it expires.
    const payer = await customer('1');
    const authorization = await signAuthorization(base, {
      signer: payer,
      to: shop.address,
      value: units('30'),
      validBefore: nowSeconds() + 3,
    });
    const paymentId = await publishAuthorization(h, shop, authorization);
    await new Promise((r) => setTimeout(r, 4_000));
    await devnet.mine('BASE');
    const verdict = await h.verdict(paymentId, 20_000);
    expect(verdict.type).to.equal('chain.payment.rejected');
    expect(verdict.data.detail).to.match(/^authorization_expired: /);
    expect(await h.db('gasless_relay_transactions').where({ payment_id: paymentId })).to.deep.equal([]);
    const row = await h.db('gasless_payments').where({ payment_id: paymentId }).first();
    expect(row.step).to.equal('rejected');
  });

  it('submits each authorization once with two replicas consuming and sending side by side', async () => {
    const replica = await startHarness({
      registry: devnet.registry(),
      env: env(devnet),
      share: { databaseUrl: h.databaseUrl, amqpUrl: h.amqpUrl, prefix: h.prefix },
    });
    try {
      const payments = await Promise.all(
        [1, 2, 3, 4].map(async (n) => {
          const payer = await customer('10');
          const authorization = await signAuthorization(base, {
            signer: payer,
            to: shop.address,
            value: units(`${n}`),
          });
          return publishAuthorization(h, shop, authorization, { copies: 2 });
        }),
      );
      for (const paymentId of payments) {
        const verdict = await h.verdict(paymentId, 30_000);
        expect(verdict.type, JSON.stringify(verdict.data)).to.equal('chain.payment.verified');
        expect(await transfersIn(verdict.data.txHash)).to.have.length(1);
      }
      await waitFor(
        async () =>
          (await h.db('gasless_payments').whereIn('payment_id', payments).where({ step: 'submit' }))
            .length === 0,
        10_000,
        'settled',
      );
      await h.events.drain();
      for (const paymentId of payments) {
        const types = eventsAbout(h, paymentId).map((e) => e.type);
        expect(
          types.filter((t) => t === 'chain.payment.relayed'),
          paymentId,
        ).to.have.length(1);
        expect(
          types.filter((t) => t === 'chain.payment.verified'),
          paymentId,
        ).to.have.length(1);
        expect(await h.db('gasless_relay_transactions').where({ payment_id: paymentId })).to.have.length(1);
      }
    } finally {
      await replica.close();
    }
  });
});
