import { expect } from 'chai';
import {
  Contract,
  JsonRpcProvider,
  MaxUint256,
  Wallet,
  ZeroHash,
  parseUnits,
  type TransactionReceipt,
} from 'ethers';
import type { CctpFeeQuote } from '@stablepay/contracts';
import { addressToBytes32, fiatTokenAbi, tokenMessengerV2Abi, type DevnetChain } from '@stablepay/devnet';
import { waitFor } from '../support.js';
import { startStackHarness, walletOn as walletOnChain, type Merchant, type StackHarness } from './harness.js';
import { signatureValid, startReceiver } from './webhook-receiver.js';

/** A quote's amount in USDC base units (its numbers have at most 6 decimals). */
const baseUnits = (amount: number) => parseUnits(amount.toFixed(6), 6);

/**
 * The legacy relayer flow through the gateway: the customer asks for a signed fee quote, burns its
 * amountToBurn on ETH to the service's relay wallet on BASE, and reports the burn with the quote. The
 * service waits for Circle's attestation (the devnet's service), mints on BASE from the relay wallet
 * and pays the merchant exactly merchantReceives; the webhook names the transfer.
 */
describe('cross-chain payments over CCTP on the devnet, through the gateway (legacy relayer flow)', function () {
  this.timeout(180_000);
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let h: StackHarness;
  let shop: Merchant;
  let secret: string;
  const providers: JsonRpcProvider[] = [];

  before(async () => {
    receiver = await startReceiver();
    // Each step takes at least one pass of half a second: every status is there long enough to see.
    h = await startStackHarness({
      CCTP_POLL_MS: '500',
      CCTP_MAX_BACKOFF_MS: '1000',
      WEBHOOK_EXTRA_CA_FILE: receiver.caFile,
    });
    shop = await h.register('relayer-shop@example.com');
    expect(shop.wallet.blockchain).to.equal('BASE');
    const hook = await h.gw.call('POST', '/merchant-webhooks/api/create', {
      headers: shop.key,
      body: { url: receiver.url, events: ['payment.completed'], description: 'orders' },
    });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
    secret = hook.body.data.secret as string;
  });
  after(async () => {
    for (const p of providers) p.destroy();
    await h?.close();
    receiver?.close();
  });

  const chain = (name: string): DevnetChain => h.stack.devnet.chains.find((c) => c.name === name)!;
  const walletOn = (c: DevnetChain, privateKey: string) => walletOnChain(providers, c, privateKey);
  const usdcBalance = async (c: DevnetChain, address: string) =>
    (await new Contract(
      c.tokens.USDC,
      fiatTokenAbi(),
      walletOn(c, Wallet.createRandom().privateKey),
    ).getFunction('balanceOf')(address)) as bigint;

  const quote = async (productPrice: string): Promise<CctpFeeQuote> => {
    const res = await h.gw.call(
      'GET',
      `/payments/cctp-fee?destinationChain=BASE&productPrice=${productPrice}`,
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as CctpFeeQuote;
  };

  /** Approve and depositForBurn on ETH to `recipient` on BASE, as the customer's wallet does. */
  const burn = async (privateKey: string, amount: bigint, recipient: string): Promise<TransactionReceipt> => {
    const wallet = walletOn(chain('ETH'), privateKey);
    const usdc = new Contract(chain('ETH').tokens.USDC, fiatTokenAbi(), wallet);
    await (await usdc.getFunction('approve')(chain('ETH').cctp.tokenMessenger, MaxUint256)).wait();
    const messenger = new Contract(chain('ETH').cctp.tokenMessenger, tokenMessengerV2Abi(), wallet);
    const tx = await messenger.getFunction('depositForBurn')(
      amount,
      chain('BASE').cctpDomain,
      addressToBytes32(recipient),
      chain('ETH').tokens.USDC,
      ZeroHash,
      parseUnits('0.5', 6),
      1000,
    );
    return (await tx.wait()) as TransactionReceipt;
  };

  const report = (burned: TransactionReceipt, from: string, feeQuote: unknown, amount: number) =>
    h.gw.call('POST', '/payments/create-public', {
      body: {
        merchantId: shop.merchantId,
        txHash: burned.hash,
        amount,
        token: 'USDC',
        chainId: chain('ETH').chainId,
        destinationChainId: chain('BASE').chainId,
        fromAddress: from,
        toAddress: shop.wallet.address,
        isCrossChain: true,
        feeQuote,
        customerEmail: 'payer@example.com',
      },
    });

  it('quotes, burns to the relay wallet, and walks attestation, mint and transfer to completed', async () => {
    const customer = h.stack.devnet.customers[0]!;
    const relay = h.stack.devnet.relayers.BASE!.address;
    const before = await usdcBalance(chain('BASE'), shop.wallet.address);
    const q = await quote('10');
    expect(q).to.include({ productPrice: 10, merchantReceives: 10, destinationChain: 'BASE' });
    const burned = await burn(customer.privateKey, baseUnits(q.amountToBurn), relay);

    // The attestation API is down at first: the verified burn waits in pending_attestation.
    h.stack.attestation.control.setFailure(503);
    const created = await report(burned, customer.address, q, q.merchantReceives);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.data).to.include({ status: 'pending', isCrossChain: true });
    const paymentId = created.body.data.paymentId as string;
    const status = async () => (await h.gw.call('GET', `/payments/${paymentId}/status`)).body.data;
    const waiting = await waitFor(async () => {
      const s = await status();
      return s?.status === 'pending_attestation' ? s : undefined;
    }, 'pending_attestation');
    expect(waiting).to.include({ is_cross_chain: true, cctp_attestation_status: null });
    expect(waiting).to.not.have.any.keys('amount', 'tx_hash', 'from_address', 'to_address');

    // Back up: every further status is seen in order in the public status view.
    const seen: string[] = [waiting.status];
    h.stack.attestation.control.setFailure(false);
    const done = await waitFor(
      async () => {
        const s = await status();
        if (s && seen.at(-1) !== s.status) seen.push(s.status);
        return ['completed', 'failed'].includes(s?.status) ? s : undefined;
      },
      90_000,
      'payment to finish',
    );
    expect(done, JSON.stringify(done)).to.include({
      status: 'completed',
      cctp_attestation_status: 'complete',
    });
    expect(seen).to.deep.equal([
      'pending_attestation',
      'ready_to_mint',
      'minted_pending_transfer',
      'completed',
    ]);

    // The merchant received exactly merchantReceives from the relay wallet.
    expect((await usdcBalance(chain('BASE'), shop.wallet.address)) - before).to.equal(
      baseUnits(q.merchantReceives),
    );
    const cctp = h.events.filter(
      (e) => e.type.startsWith('chain.cctp.') && e.body.data.paymentId === paymentId,
    );
    expect(cctp.map((e) => e.type)).to.include.members([
      'chain.cctp.burn_verified',
      'chain.cctp.attested',
      'chain.cctp.minted',
      'chain.cctp.transferred',
    ]);
    const minted = cctp.find((e) => e.type === 'chain.cctp.minted')!.body.data;
    const transferred = cctp.find((e) => e.type === 'chain.cctp.transferred')!.body.data;
    expect(minted).to.include({ flow: 'relayer', recipient: relay });
    expect(transferred).to.include({ toAddress: shop.wallet.address, amount: '10.000000' });

    const detail = (await h.gw.call('GET', `/payments/${paymentId}`, { headers: shop.bearer })).body.data;
    expect(detail).to.include({
      status: 'completed',
      bridge_provider: 'cctp_relayer',
      received_amount: '10.000000',
      mint_tx_hash: minted.mintTxHash,
      merchant_transfer_tx_hash: transferred.transferTxHash,
    });

    const completed = await waitFor(
      () => h.events.find((e) => e.type === 'payment.completed' && e.body.data.payment_id === paymentId),
      'payment.completed',
    );
    expect(completed.body.data).to.include({
      is_cross_chain: true,
      merchant_transfer_tx_hash: transferred.transferTxHash,
    });
    const hook = await waitFor(
      () =>
        receiver.received.find(
          (r) => r.body.event === 'payment.completed' && r.body.data.payment_id === paymentId,
        ),
      'payment.completed webhook',
      60_000,
    );
    expect(signatureValid(hook, secret)).to.equal(true);
    expect(hook.body.data).to.include({
      is_cross_chain: true,
      source_chain: 'ETH',
      destination_chain: 'BASE',
      merchant_transfer_tx_hash: transferred.transferTxHash,
    });
  });

  it('refuses a forged quote and stores nothing', async () => {
    const customer = h.stack.devnet.customers[1]!;
    const q = await quote('12');
    const forged = { ...q, feeTotal: 0.01, amountToBurn: 12.01, totalUserPays: 12.01 };
    const burned = await burn(
      customer.privateKey,
      baseUnits(forged.amountToBurn),
      h.stack.devnet.relayers.BASE!.address,
    );
    const refused = await report(burned, customer.address, forged, forged.merchantReceives);
    expect(refused.status).to.equal(400);
    expect(refused.body.details).to.deep.include({
      path: 'feeQuote.signature',
      message: 'The fee quote was not issued by this service or was changed after it was issued',
      code: 'quote_signature_invalid',
    });
    const stored = await h.query('select id from payments.payments where tx_hash = $1', [
      burned.hash.toLowerCase(),
    ]);
    expect(stored).to.deep.equal([]);
  });
});
