import { expect } from 'chai';
import { Interface, keccak256, type JsonRpcProvider, type TransactionReceipt, type Wallet } from 'ethers';
import { devnetAccount } from '../src/accounts.js';
import {
  encodeForwardHookData,
  forwarderAccount,
  startAttestationService,
  startDevnetAttestationService,
  type AttestationService,
  type AttestationServiceOptions,
} from '../src/attestation/index.js';
import {
  decodeMessageV2,
  messageTransmitterV2Abi,
  recoverAttesters,
  startDevnet,
  type Devnet,
  type DevnetChain,
} from '../src/index.js';
import { balanceOf, burn, cctpOf, emittedMessage, receive } from './cctp-helpers.js';
import { expectAbove, expectRevert, providerFor, usdc, walletFor } from './helpers.js';

const FORWARD_FEE = { low: 150_000n, med: 200_000n, high: 250_000n };
const FAST_WINDOW = 5;

/*
 * The attestation service against the devnet's real CCTP contracts: burns sent with depositForBurn on
 * one anvil chain, attested by the service, minted on another by MessageTransmitterV2 itself. The
 * service polls only when a test calls sync(), and blocks come only from transactions and mine(), so
 * every step is observed exactly.
 */
describe('attestation service: burns on the devnet', function () {
  this.timeout(120_000);
  let devnet: Devnet;
  let eth: DevnetChain;
  let base: DevnetChain;
  let service: AttestationService;
  let serviceOptions: AttestationServiceOptions;
  const forwarder = devnetAccount(2100);
  const providers = new Map<string, JsonRpcProvider>();
  const provider = (chain: DevnetChain): JsonRpcProvider => {
    let found = providers.get(chain.name);
    if (!found) providers.set(chain.name, (found = providerFor(chain)));
    return found;
  };
  const customer = (n: number, chain: DevnetChain): Wallet =>
    walletFor(devnet.customers[n] as (typeof devnet.customers)[0], provider(chain));
  const recipient = (n: number) => devnetAccount(3000 + n).address;

  const messages = async (source: DevnetChain, txHash: string) => {
    const res = await fetch(`${service.url}/v2/messages/${source.cctpDomain}?transactionHash=${txHash}`);
    return { status: res.status, body: (await res.json()) as any };
  };
  const only = async (source: DevnetChain, txHash: string) => {
    const { status, body } = await messages(source, txHash);
    expect(status).to.equal(200);
    expect(body.messages).to.have.length(1);
    return body.messages[0];
  };
  const head = (chain: DevnetChain) => provider(chain).getBlockNumber();

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 3 });
    [eth, base] = [devnet.chain('ETH'), devnet.chain('BASE')];
    await devnet.fund('BASE', forwarder.address, { native: 10n ** 18n });
    serviceOptions = {
      chains: devnet.chains.map((chain) => ({
        name: chain.name,
        chainId: chain.chainId,
        cctpDomain: chain.cctpDomain,
        rpcUrl: chain.rpcUrl,
        messageTransmitter: chain.cctp.messageTransmitter,
        tokenMessenger: chain.cctp.tokenMessenger,
      })),
      attesterKeys: devnet.cctp.attesters.map((attester) => attester.privateKey),
      signatureThreshold: devnet.cctp.signatureThreshold,
      confirmations: { fast: 2, standard: 4 },
      fees: { fastBps: { 0: 1.3 }, forwardFee: FORWARD_FEE },
      fastExpirationBlocks: FAST_WINDOW,
      relayerKeys: { BASE: forwarder.privateKey },
      forwardConfirmations: 2,
      pollIntervalMs: 3_600_000, // tests drive the polling with sync()
    };
    service = await startAttestationService(serviceOptions);
  });

  after(async () => {
    await service?.stop();
    for (const each of providers.values()) each.destroy();
    await devnet?.stop();
  });

  it('answers 404 until it sees a fast burn, pending until its confirmations, then a message the transmitter accepts', async () => {
    const amount = usdc(100);
    const fee = 13_000n; // 1.3 bps of 100 USDC
    const receipt = await burn(eth, customer(0, eth), {
      amount,
      destination: base,
      recipient: recipient(0),
      maxFee: 20_000n,
      minFinalityThreshold: 1000,
    });
    expect((await messages(eth, receipt.hash)).status).to.equal(404);

    await service.control.sync();
    const pending = await only(eth, receipt.hash);
    expect(pending).to.deep.include({
      attestation: 'PENDING',
      status: 'pending_confirmations',
      cctpVersion: 2,
      delayReason: null,
      forwardState: null,
      forwardTxHash: null,
    });

    await devnet.mine('ETH');
    await service.control.sync();
    const done = await only(eth, receipt.hash);
    expect(done.status).to.equal('complete');
    expect(done.delayReason).to.equal(null);
    const baseHead = await head(base);
    expect(done.decodedMessage).to.deep.include({
      sourceDomain: '0',
      destinationDomain: '6',
      nonce: done.eventNonce,
      sender: eth.cctp.tokenMessenger.toLowerCase(),
      recipient: base.cctp.tokenMessenger.toLowerCase(),
      destinationCaller: '0x0000000000000000000000000000000000000000',
      minFinalityThreshold: '1000',
      finalityThresholdExecuted: '1000',
    });
    expect(done.decodedMessage.decodedMessageBody).to.deep.equal({
      burnToken: eth.tokens.USDC.toLowerCase(),
      mintRecipient: recipient(0).toLowerCase(),
      amount: amount.toString(),
      messageSender: devnet.customers[0]!.address.toLowerCase(),
      maxFee: '20000',
      feeExecuted: fee.toString(),
      expirationBlock: String(baseHead + FAST_WINDOW),
      hookData: '0x',
    });
    expect(decodeMessageV2(done.message).nonce).to.equal(done.eventNonce);
    const signers = recoverAttesters(done.message, done.attestation);
    expect(signers).to.have.members(devnet.cctp.attesters.map((a) => a.address));

    // Found again by nonce, and through the v1 path by either message hash.
    const byNonce = await fetch(`${service.url}/v2/messages/0?nonce=${done.eventNonce}`);
    expect(((await byNonce.json()) as any).messages[0].attestation).to.equal(done.attestation);
    for (const hash of [keccak256(done.message), keccak256(emittedMessage(receipt))]) {
      const v1 = await fetch(`${service.url}/v1/attestations/${hash}`);
      expect(await v1.json()).to.deep.equal({ attestation: done.attestation, status: 'complete' });
    }

    const feeRecipientBefore = await balanceOf(base, provider(base), devnet.cctp.feeRecipient);
    await receive(base, customer(1, base), done.message, done.attestation);
    expect(await balanceOf(base, provider(base), recipient(0))).to.equal(amount - fee);
    expect(await balanceOf(base, provider(base), devnet.cctp.feeRecipient)).to.equal(
      feeRecipientBefore + fee,
    );
  });

  it('attests a standard burn at the standard depth, free and never expiring', async () => {
    const receipt = await burn(eth, customer(0, eth), {
      amount: usdc(5),
      destination: base,
      recipient: recipient(1),
      maxFee: 0n,
      minFinalityThreshold: 2000,
    });
    await devnet.mine('ETH', 2); // three blocks with the burn's own: one short of four
    await service.control.sync();
    expect((await only(eth, receipt.hash)).status).to.equal('pending_confirmations');
    await devnet.mine('ETH');
    await service.control.sync();
    const done = await only(eth, receipt.hash);
    expect(done.decodedMessage.finalityThresholdExecuted).to.equal('2000');
    expect(done.decodedMessage.decodedMessageBody).to.deep.include({
      feeExecuted: '0',
      expirationBlock: '0',
    });
    await receive(base, customer(1, base), done.message, done.attestation);
    expect(await balanceOf(base, provider(base), recipient(1))).to.equal(usdc(5));
  });

  it('downgrades a fast burn whose maxFee is below the fee to standard, saying insufficient_fee meanwhile', async () => {
    const receipt = await burn(eth, customer(0, eth), {
      amount: usdc(100),
      destination: base,
      recipient: recipient(2),
      maxFee: 12_999n,
      minFinalityThreshold: 1000,
    });
    await devnet.mine('ETH');
    await service.control.sync();
    const pending = await only(eth, receipt.hash);
    expect(pending).to.deep.include({ status: 'pending_confirmations', delayReason: 'insufficient_fee' });
    await devnet.mine('ETH', 2);
    await service.control.sync();
    const done = await only(eth, receipt.hash);
    expect(done).to.deep.include({ status: 'complete', delayReason: null });
    expect(done.decodedMessage.finalityThresholdExecuted).to.equal('2000');
    expect(done.decodedMessage.decodedMessageBody.feeExecuted).to.equal('0');
  });

  it('re-attests an expired fast message: a fresh expiry first, then standard once the burn is final', async () => {
    const receipt = await burn(eth, customer(0, eth), {
      amount: usdc(10),
      destination: base,
      recipient: recipient(3),
      maxFee: 10_000n,
      minFinalityThreshold: 1000,
    });
    await devnet.mine('ETH');
    await service.control.sync();
    const first = await only(eth, receipt.hash);
    await devnet.mine('BASE', FAST_WINDOW + 1);
    await expectRevert(
      receive(base, customer(1, base), first.message, first.attestation),
      /Message expired and must be re-signed/,
    );

    const reattest = await fetch(`${service.url}/v2/reattest/${first.eventNonce}`, { method: 'POST' });
    expect(reattest.status).to.equal(200);
    expect(await reattest.json()).to.deep.equal({
      message: 'Re-attestation successfully requested for nonce.',
      nonce: first.eventNonce,
    });
    const fresh = await only(eth, receipt.hash);
    expect(fresh.eventNonce).to.equal(first.eventNonce);
    expect(fresh.attestation).to.not.equal(first.attestation);
    expect(fresh.decodedMessage.finalityThresholdExecuted).to.equal('1000');
    expect(BigInt(fresh.decodedMessage.decodedMessageBody.expirationBlock)).to.equal(
      BigInt((await head(base)) + FAST_WINDOW),
    );

    await devnet.mine('ETH', 2);
    await fetch(`${service.url}/v2/reattest/${first.eventNonce}`, { method: 'POST' });
    const final = await only(eth, receipt.hash);
    expect(final.decodedMessage.finalityThresholdExecuted).to.equal('2000');
    expect(final.decodedMessage.decodedMessageBody).to.deep.include({
      expirationBlock: '0',
      feeExecuted: '1300',
    });
    await devnet.mine('BASE', FAST_WINDOW + 1);
    await receive(base, customer(1, base), final.message, final.attestation);
    expect(await balanceOf(base, provider(base), recipient(3))).to.equal(usdc(10) - 1_300n);

    // A standard message has nothing to re-attest.
    const again = await fetch(`${service.url}/v2/reattest/${first.eventNonce}`, { method: 'POST' });
    expect(again.status).to.equal(400);
  });

  it('mints a forwarded burn itself, the forwarding fee out of the minted amount, and reports it', async () => {
    const amount = usdc(50);
    const fee = 6_500n + FORWARD_FEE.med; // 1.3 bps of 50 USDC, plus the forwarding fee
    const receipt = await burn(eth, customer(0, eth), {
      amount,
      destination: base,
      recipient: recipient(4),
      maxFee: fee,
      minFinalityThreshold: 1000,
      hookData: encodeForwardHookData(),
    });
    await service.control.sync();
    expect(await only(eth, receipt.hash)).to.deep.include({
      status: 'pending_confirmations',
      forwardState: 'PENDING',
      forwardTxHash: null,
    });

    await devnet.mine('ETH');
    await service.control.sync(); // attests, sends the mint (mined at once), sees one confirmation
    const confirmed = await only(eth, receipt.hash);
    expect(confirmed.status).to.equal('complete');
    expect(confirmed.forwardState).to.equal('CONFIRMED');
    expect(confirmed.forwardTxHash).to.match(/^0x[0-9a-f]{64}$/);
    expect(confirmed.decodedMessage.decodedMessageBody.feeExecuted).to.equal(fee.toString());

    await devnet.mine('BASE');
    await service.control.sync();
    const complete = await only(eth, receipt.hash);
    expect(complete.forwardState).to.equal('COMPLETE');
    expect(complete.forwardTxHash).to.equal(confirmed.forwardTxHash);

    const mint = (await provider(base).getTransactionReceipt(complete.forwardTxHash)) as TransactionReceipt;
    expect(mint.from).to.equal(forwarder.address);
    expect(mint.to).to.equal(base.cctp.messageTransmitter);
    const transmitter = new Interface(messageTransmitterV2Abi());
    const received = mint.logs
      .map((log) => transmitter.parseLog(log))
      .find((log) => log?.name === 'MessageReceived');
    expect(received?.args.nonce).to.equal(complete.eventNonce);
    expect(await balanceOf(base, provider(base), recipient(4))).to.equal(amount - fee);
    const used = await cctpOf(base, provider(base)).messageTransmitter.getFunction('usedNonces')(
      complete.eventNonce,
    );
    expect(used).to.equal(1n);
  });

  it('fails forwarding that maxFee cannot pay, and attests the burn for the recipient to mint', async () => {
    const receipt = await burn(eth, customer(0, eth), {
      amount: usdc(50),
      destination: base,
      recipient: recipient(5),
      maxFee: 100_000n,
      minFinalityThreshold: 1000,
      hookData: encodeForwardHookData(),
    });
    await devnet.mine('ETH', 3);
    await service.control.sync();
    const done = await only(eth, receipt.hash);
    expect(done).to.deep.include({ status: 'complete', forwardState: 'FAILED', forwardTxHash: null });
    expect(service.control.seen().find((m) => m.transactionHash === receipt.hash)?.forwardFailure).to.equal(
      'maxFee does not cover the forwarding fee',
    );
    await receive(base, customer(1, base), done.message, done.attestation);
    expectAbove(await balanceOf(base, provider(base), recipient(5)), 0n);
  });

  it('does not forward a burn that names a destination caller, as Circle’s service does not', async () => {
    const caller = customer(1, base);
    const receipt = await burn(eth, customer(0, eth), {
      amount: usdc(20),
      destination: base,
      recipient: recipient(6),
      maxFee: 300_000n,
      minFinalityThreshold: 1000,
      destinationCaller: caller.address,
      hookData: encodeForwardHookData(),
    });
    await devnet.mine('ETH');
    await service.control.sync();
    const done = await only(eth, receipt.hash);
    expect(done).to.deep.include({ status: 'complete', forwardState: 'FAILED', forwardTxHash: null });
    expect(done.decodedMessage.destinationCaller).to.equal(caller.address.toLowerCase());
    // No forwarding fee was charged: only the fast fee, 1.3 bps of 20 USDC.
    expect(done.decodedMessage.decodedMessageBody.feeExecuted).to.equal('2600');
    await receive(base, caller, done.message, done.attestation);
    expect(await balanceOf(base, provider(base), recipient(6))).to.equal(usdc(20) - 2_600n);
  });

  it('keeps answering what it has seen after a spell of failures, delays and rate limiting', async () => {
    const seen = service.control.seen();
    const tx = seen[0]!.transactionHash;
    service.control.setFailure(503);
    expect((await messages(eth, tx)).status).to.equal(503);
    service.control.setFailure(false);
    service.control.setRateLimited(true);
    expect((await messages(eth, tx)).status).to.equal(429);
    service.control.setRateLimited(false);
    service.control.setDelay(200);
    const started = Date.now();
    expect((await only(eth, tx)).status).to.equal('complete');
    expect(Date.now() - started).to.be.at.least(190);
    service.control.setDelay(0);
  });

  it('finds every message again after a restart, with the same nonces and the forwarded mint it already sent', async () => {
    const before = service.control.seen();
    await service.stop();
    service = await startAttestationService(serviceOptions);
    await service.control.sync();
    const after = service.control.seen();
    expect(after.map((m) => [m.transactionHash, m.nonce, m.status])).to.deep.equal(
      before.map((m) => [m.transactionHash, m.nonce, m.status]),
    );
    const forwarded = before.find((m) => m.forwardState === 'COMPLETE');
    const again = after.find((m) => m.transactionHash === forwarded?.transactionHash);
    expect(again).to.deep.include({ forwardState: 'COMPLETE', forwardTxHash: forwarded?.forwardTxHash });
  });

  it('runs for a whole devnet with its forwarders funded, mining the blocks a burn waits for', async () => {
    const devnetService = await startDevnetAttestationService(devnet, { pollIntervalMs: 50 });
    try {
      expectAbove(await provider(base).getBalance(forwarderAccount('BASE').address), 0n);
      const receipt = await burn(eth, customer(2, eth), {
        amount: usdc(1),
        destination: base,
        recipient: recipient(7),
        maxFee: 0n,
        minFinalityThreshold: 2000,
      });
      const deadline = Date.now() + 10_000;
      let status = '';
      while (status !== 'complete' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const res = await fetch(`${devnetService.url}/v2/messages/0?transactionHash=${receipt.hash}`);
        if (res.status === 200) status = ((await res.json()) as any).messages[0].status;
      }
      expect(status).to.equal('complete');
      expect(await head(eth)).to.be.at.least(receipt.blockNumber + 2); // the standard depth of 3
      // The forwarded burn it found again was minted already: it reports that mint, sends none.
      const forwarded = service.control.seen().find((m) => m.forwardState === 'COMPLETE');
      const seenAgain = devnetService.control.seen().find((m) => m.nonce === forwarded?.nonce);
      expect(seenAgain).to.deep.include({
        forwardState: 'COMPLETE',
        forwardTxHash: forwarded?.forwardTxHash,
      });
    } finally {
      await devnetService.stop();
    }
  });
});
