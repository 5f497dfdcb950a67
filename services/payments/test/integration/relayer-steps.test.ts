import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { CctpFeeInputs, CctpFeeQuote, EventDataInput, EventType } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { FeeInputsServer } from '../support/fee-inputs-server.js';
import { actingAs, paymentBody, startHarness, type Harness, type TestMerchant } from '../support/harness.js';

const BASE_INPUTS: CctpFeeInputs = {
  blockchain: 'BASE',
  chainId: 31337,
  gasPriceWei: '2000000000',
  gasUnits: '265000',
  nativeToken: { symbol: 'ETH', decimals: 18, usdPrice: '3000', source: 'fixed' },
};

const hash = () => `0x${randomBytes(32).toString('hex')}`;

/**
 * The legacy relayer flow as payments follows it: the chain-watcher's chain.cctp.* reports, as real
 * events over RabbitMQ, walk the payment through pending_attestation, ready_to_mint and
 * minted_pending_transfer to completed, and payment.completed carries the merchant transfer's hash.
 */
describe('legacy relayer flow steps (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let watcher: FeeInputsServer;
  let shop: TestMerchant;

  before(async () => {
    watcher = await new FeeInputsServer().set(BASE_INPUTS).start();
    h = await startHarness({ CHAIN_WATCHER_URL: watcher.url });
    shop = await h.seedMerchant({ wallet: true, currencies: ['USDC'] });
  });
  after(async () => {
    await h?.close();
    await watcher?.close();
  });

  // A quote pays for one payment: each payment gets its own price, so its own quote.
  let price = 10;
  const newRelayedPayment = async () => {
    const q = await h.call('GET', `/payments/cctp-fee?destinationChain=BASE&productPrice=${price++}`);
    expect(q.status).to.equal(200);
    const quote = q.body.data as CctpFeeQuote;
    const body = paymentBody(shop, {
      chainId: 31338,
      isCrossChain: true,
      amount: quote.merchantReceives,
      expectedAmount: quote.amountToBurn,
      feeQuote: quote,
    });
    const res = await h.call('POST', '/payments/create-public', { body });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return { id: res.body.data.paymentId as string, txHash: body.txHash as string };
  };

  const report = <T extends EventType>(type: T, data: EventDataInput<T>) =>
    h.publish(type, data, { producer: 'chain-watcher', merchantId: shop.merchantId });
  const status = async (id: string) => (await h.call('GET', `/payments/${id}/status`)).body.data;
  const detail = async (id: string) => (await h.call('GET', `/payments/api/${id}`, actingAs(shop))).body.data;
  const row = (id: string) => h.db('payments').where({ id }).first();
  const reaches = (id: string, want: string) =>
    waitFor(async () => {
      const s = await status(id);
      return s.status === want ? s : undefined;
    }, `payment ${id} ${want}`);

  const burnVerified = (p: { id: string; txHash: string }) =>
    report('chain.cctp.burn_verified', {
      paymentId: p.id,
      flow: 'relayer',
      burnTxHash: p.txHash,
      sourceChainId: 31338,
      sourceDomain: 3,
      destinationDomain: 6,
      amount: '10.6',
      mintRecipient: shop.wallet!,
      blockNumber: 10,
    });
  const attested = (p: { id: string; txHash: string }, attestationStatus: string, messageHash: string) =>
    report('chain.cctp.attested', {
      paymentId: p.id,
      flow: 'relayer',
      burnTxHash: p.txHash,
      messageHash,
      attestationStatus,
    });
  const minted = (p: { id: string }, mintTxHash: string) =>
    report('chain.cctp.minted', {
      paymentId: p.id,
      flow: 'relayer',
      mintTxHash,
      destinationChainId: 31337,
      recipient: shop.wallet!,
      mintedAmount: '10.59',
      blockNumber: 20,
    });
  const transferred = (p: { id: string }, transferTxHash: string) =>
    report('chain.cctp.transferred', {
      paymentId: p.id,
      transferTxHash,
      toAddress: shop.wallet!,
      amount: '10',
      blockNumber: 21,
    });

  it('walks each status in turn, mirrors the attestation status, and completes with the transfer hash', async () => {
    const observer = await h.observe(['payment.completed']);
    try {
      const p = await newRelayedPayment();
      expect((await status(p.id)).status).to.equal('pending');
      const messageHash = hash();
      await burnVerified(p);
      expect(await reaches(p.id, 'pending_attestation')).to.include({ cctp_attestation_status: null });
      await attested(p, 'pending_confirmations', messageHash);
      await waitFor(
        async () => (await status(p.id)).cctp_attestation_status === 'pending_confirmations',
        'attestation status mirrored',
      );
      await attested(p, 'complete', messageHash);
      expect(await reaches(p.id, 'ready_to_mint')).to.include({ cctp_attestation_status: 'complete' });
      const mintTxHash = hash();
      await minted(p, mintTxHash);
      await reaches(p.id, 'minted_pending_transfer');
      expect(await row(p.id)).to.include({ mint_tx_hash: mintTxHash, cctp_message_hash: messageHash });
      const transferTxHash = hash();
      await transferred(p, transferTxHash);
      await reaches(p.id, 'completed');
      const d = await detail(p.id);
      expect(d).to.include({
        status: 'completed',
        received_amount: '10.000000',
        merchant_transfer_tx_hash: transferTxHash,
        cctp_attestation_status: 'complete',
      });
      const completed = await waitFor(() => observer.messages.find((m) => m.data.payment_id === p.id));
      expect(completed.data).to.include({
        is_cross_chain: true,
        merchant_transfer_tx_hash: transferTxHash,
        amount: '10.000000',
      });
    } finally {
      await observer.close();
    }
  });

  it('passes through the skipped statuses when a later report arrives first, and ignores earlier ones after', async () => {
    const p = await newRelayedPayment();
    const mintTxHash = hash();
    // The mint reported before anything else: the payment is past a complete attestation.
    await minted(p, mintTxHash);
    expect(await reaches(p.id, 'minted_pending_transfer')).to.include({
      cctp_attestation_status: 'complete',
    });
    // The earlier reports, late: nothing moves back, the mirrored status is not overwritten.
    await burnVerified(p);
    await attested(p, 'pending_confirmations', hash());
    const q = await newRelayedPayment();
    await burnVerified(q);
    await reaches(q.id, 'pending_attestation');
    expect(await status(p.id)).to.include({
      status: 'minted_pending_transfer',
      cctp_attestation_status: 'complete',
    });
    expect((await row(p.id)).mint_tx_hash).to.equal(mintTxHash);
    expect(await h.bus.peekDeadLetters('payments')).to.have.length(0);
  });

  it('fails at any step with the chain-watcher’s reason', async () => {
    const observer = await h.observe(['payment.failed']);
    try {
      const p = await newRelayedPayment();
      await burnVerified(p);
      await attested(p, 'complete', hash());
      await reaches(p.id, 'ready_to_mint');
      await report('chain.cctp.failed', {
        paymentId: p.id,
        flow: 'relayer',
        reason: 'mint_failed',
        detail: 'the message transmitter refuses the message',
      });
      await reaches(p.id, 'failed');
      expect(await detail(p.id)).to.include({ failure_reason: 'mint_failed' });
      const failed = await waitFor(() => observer.messages.find((m) => m.data.payment_id === p.id));
      expect(failed.data).to.include({ status: 'failed', failure_reason: 'mint_failed' });
      // A late step report for the failed payment changes nothing.
      await minted(p, hash());
      const q = await newRelayedPayment();
      await minted(q, hash());
      await reaches(q.id, 'minted_pending_transfer');
      expect((await status(p.id)).status).to.equal('failed');
    } finally {
      await observer.close();
    }
  });
});
