import { expect } from 'chai';
import { baseUnitsToDecimal } from '@stablepay/contracts';
import { metricValue, scrapeMetrics, waitFor, type EventObserver } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { startDevnetAttestationService, type AttestationService } from '@stablepay/devnet/attestation/index';
import { Customer, units } from '../support/chain.js';
import {
  Burner,
  RELAYER_TEST_CHAINS,
  cctpEventsOf,
  feeQuote,
  observeCctp,
  onChain,
  publishRelayerPayment,
} from '../support/cctp-relayer.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import { ChainProbe, devnetRelayerKeys } from '../support/transfers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The legacy relayer flow on real anvil chains, with the devnet's attestation service answering as
 * Circle's does: the payer burns the quote's amountToBurn on ETH to the relay wallet (the
 * chain-watcher's BASE relayer), the service polls the attestation, mints on BASE and pays the
 * merchant merchantReceives, reporting every step.
 */
describe('cross-chain payments, legacy relayer flow (anvil + attestation API + PostgreSQL + RabbitMQ)', function () {
  this.timeout(90_000);
  let devnet: Devnet;
  let attestation: AttestationService;
  let h: Harness;
  let events: EventObserver;
  let base: ChainProbe;
  let shop: Merchant;
  let relay: string;
  const burners: Burner[] = [];
  let nextCustomer = 0;

  const env = (devnet: Devnet, attestationUrl: string) => ({
    RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet),
    CCTP_ATTESTATION_URL: attestationUrl,
    CCTP_POLL_MS: '50',
    CCTP_MAX_BACKOFF_MS: '1000',
  });

  before(async () => {
    devnet = await startDevnet({ basePort: 0, chains: RELAYER_TEST_CHAINS, customers: 10 });
    // Five blocks before a fast attestation: long enough to see pending_confirmations first.
    attestation = await startDevnetAttestationService(devnet, {
      confirmations: { fast: 5 },
      pollIntervalMs: 100,
    });
    h = await startHarness({ registry: devnet.registry(), env: env(devnet, attestation.url) });
    events = await observeCctp(h);
    base = new ChainProbe(devnet.chain('BASE'));
    shop = await h.createMerchant('BASE', ['USDC']);
    relay = devnet.relayers.BASE!.address;
  });
  after(async () => {
    for (const b of burners) b.destroy();
    base?.destroy();
    await events?.close();
    await h?.close();
    await attestation?.stop();
    await devnet?.stop();
  });

  const payer = () => {
    const burner = new Burner(devnet.chain('ETH'), devnet.customers[nextCustomer++]!);
    burners.push(burner);
    return burner;
  };
  const outcome = (paymentId: string, timeoutMs = 30_000) =>
    waitFor(
      () =>
        events.messages.find(
          (e) =>
            (e.type === 'chain.cctp.transferred' || e.type === 'chain.cctp.failed') &&
            e.data.paymentId === paymentId,
        ),
      timeoutMs,
      `outcome of ${paymentId}`,
    );
  const row = (paymentId: string) => h.db('cctp_payments').where({ payment_id: paymentId }).first();
  const relayTransactions = (paymentId: string) =>
    h.db('cctp_relay_transactions').where({ payment_id: paymentId }).orderBy(['action', 'attempt']);
  const seenBy = (service: AttestationService, txHash: string) =>
    service.control.seen().find((m) => m.transactionHash.toLowerCase() === txHash.toLowerCase());
  const stepName = (e: Record<string, any>) =>
    e.type === 'chain.cctp.attested' ? `attested: ${e.data.attestationStatus}` : e.type;

  it('mints on the merchant’s chain from the relay wallet and pays the merchant, reporting every step', async () => {
    const customer = payer();
    const before = await base.balance('USDC', shop.address);
    const burned = await customer.burn({
      amount: '10.6',
      destination: devnet.chain('BASE'),
      recipient: relay,
    });
    await waitFor(() => seenBy(attestation, burned.hash), 'the attestation service to see the burn');
    const paymentId = await publishRelayerPayment(h, devnet, {
      merchant: shop,
      burnTxHash: burned.hash,
      from: customer.address,
      quote: feeQuote(10.6, 10),
    });

    const done = await outcome(paymentId);
    expect(done.type, JSON.stringify(done.data)).to.equal('chain.cctp.transferred');
    const steps = cctpEventsOf(events, paymentId);
    expect(steps.map(stepName)).to.deep.equal([
      'chain.cctp.burn_verified',
      'attested: pending_confirmations',
      'attested: complete',
      'chain.cctp.minted',
      'chain.cctp.transferred',
    ]);
    const [verified, , attested, minted, transferred] = steps.map((e) => e.data);
    expect(verified).to.include({
      flow: 'relayer',
      burnTxHash: burned.hash.toLowerCase(),
      mintRecipient: relay,
      amount: '10.600000',
      sourceDomain: 0,
      destinationDomain: 6,
    });
    const message = seenBy(attestation, burned.hash)!;
    expect(attested.messageHash).to.match(/^0x[0-9a-f]{64}$/);
    // The relay wallet gets the burn net of Circle's fee; the merchant gets exactly merchantReceives.
    expect(minted).to.include({
      flow: 'relayer',
      recipient: relay,
      destinationChainId: devnet.chain('BASE').chainId,
      mintedAmount: baseUnitsToDecimal(units('10.6') - message.feeExecuted),
    });
    expect(transferred).to.include({ toAddress: shop.address, amount: '10.000000' });

    const chain = await onChain(devnet.chain('BASE'), {
      nonce: message.nonce,
      relay,
      merchant: shop.address,
    });
    expect(chain.mints).to.deep.equal([minted.mintTxHash]);
    expect(chain.transfers).to.deep.equal([{ txHash: transferred.transferTxHash, value: units('10') }]);
    expect((await base.balance('USDC', shop.address)) - before).to.equal(units('10'));
    // The ledger: the relay's transfer into the merchant wallet is this payment's, counted once.
    const ledger = (await h
      .db('ledger_entries as e')
      .join('ledger_journals as j', 'j.id', 'e.journal_id')
      .where('j.tx_hash', transferred.transferTxHash.toLowerCase())
      .select('e.account')
      .sum({ total: 'e.amount' })
      .groupBy('e.account')) as Array<{ account: string; total: string }>;
    expect(Object.fromEntries(ledger.map((r) => [r.account, r.total]))).to.deep.include({
      wallet: '10000000',
      customer_payments: '-10000000',
    });
    expect(await h.db('ledger_journals').where({ payment_id: paymentId }).first()).to.include({
      tx_hash: transferred.transferTxHash.toLowerCase(),
    });

    expect(await row(paymentId)).to.include({
      step: 'done',
      attestation_status: 'complete',
      message_nonce: message.nonce,
      mint_tx_hash: minted.mintTxHash,
      transfer_tx_hash: transferred.transferTxHash,
    });
    // One relay transaction per action, on consecutive nonces of the relayer the transfers use.
    const txs = await relayTransactions(paymentId);
    expect(txs.map((t) => [t.action, t.kind, t.tx_hash])).to.deep.equal([
      ['mint', 'first', minted.mintTxHash],
      ['transfer', 'first', transferred.transferTxHash],
    ]);
    expect(Number(txs[1].relayer_nonce)).to.equal(Number(txs[0].relayer_nonce) + 1);
    const allocator = await h
      .db('relayer_nonces')
      .where({ chain_id: devnet.chain('BASE').chainId })
      .first();
    expect(Number(allocator.next_nonce)).to.equal(Number(txs[1].relayer_nonce) + 1);
  });

  it('waits through pending answers written with nulls (attestation, message, nonce), recording pending_confirmations', async () => {
    attestation.control.setPendingShape('nulls');
    try {
      const customer = payer();
      const burned = await customer.burn({
        amount: '5.3',
        destination: devnet.chain('BASE'),
        recipient: relay,
      });
      await waitFor(() => seenBy(attestation, burned.hash), 'the attestation service to see the burn');
      const paymentId = await publishRelayerPayment(h, devnet, {
        merchant: shop,
        burnTxHash: burned.hash,
        from: customer.address,
        quote: feeQuote(5.3, 5),
      });
      await waitFor(
        async () => (await row(paymentId))?.attestation_status === 'pending_confirmations',
        20_000,
        'pending_confirmations recorded',
      );
      const done = await outcome(paymentId);
      expect(done.type, JSON.stringify(done.data)).to.equal('chain.cctp.transferred');
      expect(cctpEventsOf(events, paymentId).map(stepName)).to.deep.equal([
        'chain.cctp.burn_verified',
        'attested: pending_confirmations',
        'attested: complete',
        'chain.cctp.minted',
        'chain.cctp.transferred',
      ]);
      const metrics = await scrapeMetrics(h.url);
      expect(metrics).to.not.match(/cctp_attestation_requests_total\{[^}]*outcome="malformed"[^}]*\} [1-9]/);
    } finally {
      attestation.control.setPendingShape('placeholders');
    }
  });

  it('never records its own transfer from the relay wallet to the merchant as an unclaimed transfer', async () => {
    const customer = payer();
    const burned = await customer.burn({
      amount: '3.2',
      destination: devnet.chain('BASE'),
      recipient: relay,
    });
    await waitFor(() => seenBy(attestation, burned.hash), 'the attestation service to see the burn');
    const paymentId = await publishRelayerPayment(h, devnet, {
      merchant: shop,
      burnTxHash: burned.hash,
      from: customer.address,
      quote: feeQuote(3.2, 3),
    });
    const done = await outcome(paymentId);
    expect(done.type, JSON.stringify(done.data)).to.equal('chain.cctp.transferred');
    const transferTxHash = done.data.transferTxHash as string;
    // A transfer to the merchant that nobody recorded, in the same blocks: the scanner does see those.
    const stranger = new Customer(devnet.chain('BASE'), devnet.customers[9]!);
    const stray = await stranger.pay('USDC', shop.address, '0.7');
    stranger.destroy();
    const head = await devnet.mine('BASE', 10);
    const cursor = async () =>
      Number(
        (await h.db('chain_cursors').where({ chain_id: shop.chainId }).first())?.last_scanned_block ?? 0,
      );
    await waitFor(async () => (await cursor()) >= head, 20_000, 'the scanner to pass the transfer');

    const unclaimed = await h.db('unclaimed_transfers').where({ chain_id: shop.chainId });
    expect(unclaimed.map((u) => u.tx_hash)).to.include(stray.toLowerCase());
    // No relay → merchant transfer of any payment of this suite is counted as unclaimed.
    const relayTransfers = (await h.db('cctp_payments').whereNotNull('transfer_tx_hash')).map((p) =>
      String(p.transfer_tx_hash).toLowerCase(),
    );
    expect(relayTransfers).to.include(transferTxHash.toLowerCase());
    expect(unclaimed.filter((u) => relayTransfers.includes(u.tx_hash))).to.deep.equal([]);
    expect(unclaimed.filter((u) => u.from_address.toLowerCase() === relay.toLowerCase())).to.deep.equal([]);
    expect(
      metricValue(await h.metrics(), 'unclaimed_transfers_total', { chain: 'BASE', token: 'USDC' }),
    ).to.equal(1);
  });

  it('fails wrong_recipient when the burn mints to anyone but the relay wallet, and sends nothing', async () => {
    const customer = payer();
    const burned = await customer.burn({
      amount: '10.6',
      destination: devnet.chain('BASE'),
      recipient: shop.address,
    });
    const paymentId = await publishRelayerPayment(h, devnet, {
      merchant: shop,
      burnTxHash: burned.hash,
      from: customer.address,
      quote: feeQuote(10.6, 10),
    });
    const done = await outcome(paymentId);
    expect(done.type).to.equal('chain.cctp.failed');
    expect(done.data).to.include({ flow: 'relayer', reason: 'wrong_recipient' });
    expect(done.data.detail).to.contain(relay);
    expect(await relayTransactions(paymentId)).to.deep.equal([]);
  });

  it('fails underpaid when the burn is below the quote’s amountToBurn', async () => {
    const customer = payer();
    const burned = await customer.burn({
      amount: '10.5',
      destination: devnet.chain('BASE'),
      recipient: relay,
    });
    const paymentId = await publishRelayerPayment(h, devnet, {
      merchant: shop,
      burnTxHash: burned.hash,
      from: customer.address,
      quote: feeQuote(10.6, 10),
    });
    const done = await outcome(paymentId);
    expect(done.data).to.include({ reason: 'underpaid' });
  });

  /** Burns to the relay and publishes the payment; resolves once it waits for its attestation. */
  const awaitingAttestation = async () => {
    const customer = payer();
    const burned = await customer.burn({
      amount: '7.6',
      destination: devnet.chain('BASE'),
      recipient: relay,
    });
    const paymentId = await publishRelayerPayment(h, devnet, {
      merchant: shop,
      burnTxHash: burned.hash,
      from: customer.address,
      quote: feeQuote(7.6, 7),
    });
    await waitFor(async () => (await row(paymentId))?.step === 'attestation', 'burn verified');
    return paymentId;
  };

  it('waits out an attestation API outage with growing back-off, never a tight loop, then completes', async () => {
    attestation.control.setFailure(503);
    let paymentId: string;
    try {
      paymentId = await awaitingAttestation();
      const start = attestation.control.requestCount();
      await sleep(3_000);
      // Polling at CCTP_POLL_MS (50 ms) would be about 60 requests; back-off doubling to 1 s is ~6.
      expect(attestation.control.requestCount() - start).to.be.within(2, 8);
      expect((await row(paymentId)).step).to.equal('attestation');
    } finally {
      attestation.control.setFailure(false);
    }
    const done = await outcome(paymentId);
    expect(done.type).to.equal('chain.cctp.transferred');
  });

  it('honours a 429: nothing is asked again before Retry-After, then it completes', async () => {
    attestation.control.setRateLimited(true);
    let paymentId: string;
    try {
      paymentId = await awaitingAttestation();
      const start = attestation.control.requestCount();
      await sleep(3_000);
      // The service answers Retry-After: 1 (second): at most one request a second.
      expect(attestation.control.requestCount() - start).to.be.within(1, 4);
      const waiting = await row(paymentId);
      expect(waiting.step).to.equal('attestation');
      expect(new Date(waiting.next_check_at).getTime() - Date.now()).to.be.at.most(1_000);
    } finally {
      attestation.control.setRateLimited(false);
    }
    const done = await outcome(paymentId);
    expect(done.type).to.equal('chain.cctp.transferred');
  });

  describe('a fast message that expired before the relay minted it', () => {
    let expiring: AttestationService;
    let h2: Harness;
    let events2: EventObserver;
    let shop2: Merchant;

    before(async () => {
      // Fast attestations valid for one block of the destination only.
      expiring = await startDevnetAttestationService(devnet, {
        fastExpirationBlocks: 1,
        pollIntervalMs: 100,
      });
      h2 = await startHarness({ registry: devnet.registry(), env: env(devnet, expiring.url) });
      events2 = await observeCctp(h2);
      shop2 = await h2.createMerchant('BASE', ['USDC']);
    });
    after(async () => {
      await events2?.close();
      await h2?.close();
      await expiring?.stop();
    });

    it('is re-attested (standard, once the burn is final) and minted with the new signature', async () => {
      const customer = payer();
      const burned = await customer.burn({
        amount: '5.6',
        destination: devnet.chain('BASE'),
        recipient: relay,
      });
      const first = await waitFor(
        () =>
          seenBy(expiring, burned.hash)?.status === 'complete' ? seenBy(expiring, burned.hash) : undefined,
        'fast attestation',
      );
      expect(first.finalityThresholdExecuted).to.equal(1000);
      const expiresAt = first.expirationBlock!;
      // BASE moves past the expiration block; ETH makes the burn final (standard confirmations).
      await devnet.mine('BASE', 2);
      await devnet.mine('ETH', 3);
      expect(BigInt(await base.provider.getBlockNumber()) >= expiresAt).to.equal(true);

      const paymentId = await publishRelayerPayment(h2, devnet, {
        merchant: shop2,
        burnTxHash: burned.hash,
        from: customer.address,
        quote: feeQuote(5.6, 5),
      });
      const done = await waitFor(
        () =>
          events2.messages.find(
            (e) =>
              (e.type === 'chain.cctp.transferred' || e.type === 'chain.cctp.failed') &&
              e.data.paymentId === paymentId,
          ),
        30_000,
        'outcome',
      );
      expect(done.type, JSON.stringify(done.data)).to.equal('chain.cctp.transferred');
      const resigned = seenBy(expiring, burned.hash)!;
      expect(resigned).to.include({ finalityThresholdExecuted: 2000, expirationBlock: 0n });
      const minted = cctpEventsOf(events2, paymentId).find((e) => e.type === 'chain.cctp.minted')!.data;
      const chain = await onChain(devnet.chain('BASE'), {
        nonce: resigned.nonce,
        relay,
        merchant: shop2.address,
      });
      expect(chain.mints).to.deep.equal([minted.mintTxHash]);
      // Nothing was sent with the expired signature: the one mint transaction carried the new one.
      const txs = await h2.db('cctp_relay_transactions').where({ payment_id: paymentId, action: 'mint' });
      expect(txs.map((t) => t.tx_hash)).to.deep.equal([minted.mintTxHash]);
      const receipt = await base.provider.getTransactionReceipt(minted.mintTxHash);
      const received = receipt!.logs.find((l) => l.topics[2] === resigned.nonce)!;
      expect(Number(BigInt(received.topics[3]!))).to.equal(2000);
    });
  });
});
