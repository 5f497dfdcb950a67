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
import {
  addressToBytes32,
  fiatTokenAbi,
  messageTransmitterV2Abi,
  tokenMessengerV2Abi,
  type DevnetChain,
} from '@stablepay/devnet';
import { encodeForwardHookData } from '@stablepay/devnet/attestation/index';
import { waitFor } from '../support.js';
import { startStackHarness, walletOn as walletOnChain, type Merchant, type StackHarness } from './harness.js';
import { signatureValid, startReceiver } from './webhook-receiver.js';

/**
 * A customer holding USDC on ETH pays a merchant on BASE through CCTP v2 (the bridge-kit flow): the
 * burn, Circle's attestation (the devnet's service) and the mint are real transactions and API calls.
 */
describe('cross-chain payments over CCTP on the devnet, through the gateway (bridge kit)', function () {
  this.timeout(180_000);
  let h: StackHarness;
  let shop: Merchant;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let webhookSecret: string;
  let customerIndex = 0;
  const providers: JsonRpcProvider[] = [];

  before(async () => {
    // A burn never minted fails after this long, so the test of it ends quickly.
    receiver = await startReceiver();
    h = await startStackHarness({
      WEBHOOK_EXTRA_CA_FILE: receiver.caFile,
      REFUND_HOLD_SECONDS: '1',
      SCAN_INTERVAL_MS: '200',
      CCTP_MINT_TIMEOUT_MS: '20000',
      CCTP_POLL_MS: '200',
      CCTP_MAX_BACKOFF_MS: '1000',
    });
    shop = await h.register('cross-chain-shop@example.com');
    expect(shop.wallet.blockchain).to.equal('BASE');
    const hook = await h.gw.call('POST', '/merchant-webhooks/api/create', {
      headers: shop.key,
      body: { url: receiver.url, events: ['payment.completed'] },
    });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
    webhookSecret = hook.body.data.secret;
  });
  after(async () => {
    for (const p of providers) p.destroy();
    await h?.close();
    receiver?.close();
  });

  const chain = (name: string): DevnetChain => h.stack.devnet.chains.find((c) => c.name === name)!;
  const walletOn = (c: DevnetChain, privateKey: string) => walletOnChain(providers, c, privateKey);
  const nextCustomer = () => h.stack.devnet.customers[customerIndex++ % h.stack.devnet.customers.length]!;

  /** Approve and depositForBurn on `source`, as Bridge Kit's burn step does. */
  const burn = async (opts: {
    privateKey: string;
    source?: DevnetChain;
    amount: string;
    recipient?: string;
    destination?: DevnetChain;
    hookData?: string;
    maxFee?: string;
  }): Promise<TransactionReceipt> => {
    const source = opts.source ?? chain('ETH');
    const wallet = walletOn(source, opts.privateKey);
    const usdc = new Contract(source.tokens.USDC, fiatTokenAbi(), wallet);
    await (await usdc.getFunction('approve')(source.cctp.tokenMessenger, MaxUint256)).wait();
    const messenger = new Contract(source.cctp.tokenMessenger, tokenMessengerV2Abi(), wallet);
    const args = [
      parseUnits(opts.amount, 6),
      (opts.destination ?? chain('BASE')).cctpDomain,
      addressToBytes32(opts.recipient ?? shop.wallet.address),
      source.tokens.USDC,
      ZeroHash,
      parseUnits(opts.maxFee ?? '0.5', 6),
      1000,
    ];
    const tx = opts.hookData
      ? await messenger.getFunction('depositForBurnWithHook')(...args, opts.hookData)
      : await messenger.getFunction('depositForBurn')(...args);
    return (await tx.wait()) as TransactionReceipt;
  };

  /** Bridge Kit's fetchAttestation step: polls the attestation API until the message is signed. */
  const attested = (txHash: string, sourceDomain = 0) =>
    waitFor(async () => {
      const res = await fetch(
        `${h.stack.attestation.url}/v2/messages/${sourceDomain}?transactionHash=${txHash}`,
      );
      if (res.status !== 200) return undefined;
      const body = (await res.json()) as { messages: Array<Record<string, string>> };
      return body.messages[0]?.status === 'complete' ? body.messages[0] : undefined;
    }, `attestation of ${txHash}`);

  /** Bridge Kit's mint step: the customer receives the message on the merchant's chain. */
  const mint = async (privateKey: string, message: string, attestation: string) => {
    const transmitter = new Contract(
      chain('BASE').cctp.messageTransmitter,
      messageTransmitterV2Abi(),
      walletOn(chain('BASE'), privateKey),
    );
    return (await (
      await transmitter.getFunction('receiveMessage')(message, attestation)
    ).wait()) as TransactionReceipt;
  };

  const usdcBalance = async (c: DevnetChain, address: string) =>
    (await new Contract(
      c.tokens.USDC,
      fiatTokenAbi(),
      walletOn(c, Wallet.createRandom().privateKey),
    ).getFunction('balanceOf')(address)) as bigint;

  const report = (opts: {
    burnTxHash: string;
    mintTxHash?: string;
    from: string;
    amount: string;
    source?: DevnetChain;
  }) =>
    h.gw.call('POST', '/payments/create-public', {
      body: {
        merchantId: shop.merchantId,
        txHash: opts.burnTxHash,
        amount: opts.amount,
        token: 'USDC',
        chainId: (opts.source ?? chain('ETH')).chainId,
        destinationChainId: chain('BASE').chainId,
        fromAddress: opts.from,
        toAddress: shop.wallet.address,
        isCrossChain: true,
        bridgeKit: {
          burnTxHash: opts.burnTxHash,
          ...(opts.mintTxHash ? { mintTxHash: opts.mintTxHash } : {}),
        },
        customerEmail: 'payer@example.com',
      },
    });

  const finalStatus = (paymentId: string) =>
    waitFor(
      async () => {
        const r = await h.gw.call('GET', `/payments/${paymentId}`, { headers: shop.bearer });
        return ['completed', 'failed'].includes(r.body.data?.status) ? r.body.data : undefined;
      },
      60_000,
      `payment ${paymentId} to finish`,
    );

  it('completes when the client mints: the merchant receives the burn net of the fee', async () => {
    const customer = nextCustomer();
    const before = await usdcBalance(chain('BASE'), shop.wallet.address);
    // The payer burns the amount plus Circle's fee: the merchant is owed the amount after fees.
    const burned = await burn({ privateKey: customer.privateKey, amount: '25.01' });
    const message = await attested(burned.hash);
    const minted = await mint(customer.privateKey, message.message!, message.attestation!);
    const received = (await usdcBalance(chain('BASE'), shop.wallet.address)) - before;
    expect(received >= parseUnits('25', 6) && received < parseUnits('25.01', 6)).to.equal(true);

    const created = await report({
      burnTxHash: burned.hash,
      mintTxHash: minted.hash,
      from: customer.address,
      amount: '25',
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.data).to.include({ status: 'pending', isCrossChain: true });
    const done = await finalStatus(created.body.data.paymentId);
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(parseUnits(done.received_amount, 6)).to.equal(received);
    expect(parseUnits(done.surplus_amount, 6)).to.equal(received - parseUnits('25', 6));
    expect(parseUnits(done.cctp_fee_amount, 6)).to.equal(parseUnits('25.01', 6) - received);
    expect(done.mint_tx_hash).to.equal(minted.hash.toLowerCase());
    expect(done.cctp_attestation_status).to.equal(null);
    const completed = await waitFor(
      () => h.events.find((e) => e.type === 'payment.completed' && e.body.data.payment_id === done.id),
      'payment.completed',
    );
    expect(completed.body.data).to.include({
      is_cross_chain: true,
      amount: '25.000000',
      received_amount: done.received_amount,
      surplus_amount: done.surplus_amount,
      cctp_fee_amount: done.cctp_fee_amount,
    });
    const delivered = await waitFor(
      () => receiver.received.find((r) => r.body.data.payment_id === done.id),
      'the signed payment.completed webhook',
    );
    expect(delivered.body.event).to.equal('payment.completed');
    expect(delivered.body.data).to.include({ is_cross_chain: true, status: 'completed' });
    expect(signatureValid(delivered, webhookSecret)).to.equal(true);
    // The ledger books the mint into the wallet, net of the fee, and gives it to the payment (at
    // once, or by attribution when the scanner saw the mint before the payment was reported).
    const ledger = await h.gw.call('GET', `/balance-transactions/api/list?payment_id=${done.id}`, {
      headers: shop.key,
    });
    expect(ledger.status, JSON.stringify(ledger.body)).to.equal(200);
    const [entry] = ledger.body.data.balance_transactions;
    expect(entry).to.include({ tx_hash: done.mint_tx_hash, payment_id: done.id });
    expect(['payment', 'attribution']).to.include(entry.type);
    const [wallet] = await h.query<{ total: string }>(
      `select sum(e.amount)::text as total from chain_watcher.ledger_entries e
         join chain_watcher.ledger_journals j on j.id = e.journal_id
        where j.tx_hash = $1 and e.account = 'wallet'`,
      [done.mint_tx_hash],
    );
    expect(BigInt(wallet!.total)).to.equal(received);
  });

  it('refunds a cross-chain payment on the merchant chain, to the wallet that burned', async () => {
    const customer = nextCustomer();
    const burned = await burn({ privateKey: customer.privateKey, amount: '8.01' });
    const message = await attested(burned.hash);
    const minted = await mint(customer.privateKey, message.message!, message.attestation!);
    const created = await report({
      burnTxHash: burned.hash,
      mintTxHash: minted.hash,
      from: customer.address,
      amount: '8',
    });
    const paymentId = created.body.data.paymentId as string;
    expect((await finalStatus(paymentId)).status).to.equal('completed');
    const before = await usdcBalance(chain('BASE'), customer.address);
    const refund = await waitFor(async () => {
      // The refunds service learns of the payment from payment.completed.
      const r = await h.gw.call('POST', '/refunds/api/create', {
        headers: shop.key,
        body: { paymentId, amount: '3', reason: 'requested_by_customer' },
      });
      return r.status === 404 ? undefined : r;
    }, 'the refund to be accepted');
    expect(refund.status, JSON.stringify(refund.body)).to.equal(201);
    expect(refund.body.data).to.include({ blockchain: 'BASE', amount: '3.000000' });
    expect(refund.body.data.destination_address.toLowerCase()).to.equal(customer.address.toLowerCase());
    const done = await waitFor(
      async () => {
        const r = await h.gw.call('GET', `/refunds/api/${refund.body.data.id}`, { headers: shop.key });
        return ['completed', 'failed'].includes(r.body.data?.status) ? r.body.data : undefined;
      },
      60_000,
      'the refund',
    );
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect((await usdcBalance(chain('BASE'), customer.address)) - before).to.equal(parseUnits('3', 6));
  });

  it('reports a mint to a merchant wallet that no payment recorded, and matches it once one does', async () => {
    const customer = nextCustomer();
    const burned = await burn({ privateKey: customer.privateKey, amount: '2.01' });
    const message = await attested(burned.hash);
    const minted = await mint(customer.privateKey, message.message!, message.attestation!);
    const unclaimed = await waitFor(async () => {
      const rows = await h.query('select * from chain_watcher.unclaimed_transfers where tx_hash = $1', [
        minted.hash.toLowerCase(),
      ]);
      return rows[0];
    }, 'the unclaimed mint');
    expect(unclaimed).to.include({
      status: 'unclaimed',
      from_address: '0x0000000000000000000000000000000000000000',
    });
    const created = await report({
      burnTxHash: burned.hash,
      mintTxHash: minted.hash,
      from: customer.address,
      amount: '2',
    });
    expect((await finalStatus(created.body.data.paymentId)).status).to.equal('completed');
    const [after] = await h.query('select * from chain_watcher.unclaimed_transfers where tx_hash = $1', [
      minted.hash.toLowerCase(),
    ]);
    expect(after).to.include({ status: 'matched', matched_payment_id: created.body.data.paymentId });
  });

  it('completes when the forwarding service mints, found through the attestation API', async () => {
    const customer = nextCustomer();
    const burned = await burn({
      privateKey: customer.privateKey,
      // the amount, the forwarding fee (0.2) and Circle's fast fee
      amount: '12.21',
      hookData: encodeForwardHookData(),
    });
    const created = await report({ burnTxHash: burned.hash, from: customer.address, amount: '12' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const done = await finalStatus(created.body.data.paymentId);
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    const message = await attested(burned.hash);
    expect(message.forwardState).to.equal('COMPLETE');
    expect(done.mint_tx_hash).to.equal(String(message.forwardTxHash).toLowerCase());
    const received = parseUnits(done.received_amount, 6);
    expect(received >= parseUnits('12', 6) && received < parseUnits('12.21', 6)).to.equal(true);
  });

  it('fails as underpaid when the mint, net of the fee, is less than the amount, and says what arrived', async () => {
    const customer = nextCustomer();
    const before = await usdcBalance(chain('BASE'), shop.wallet.address);
    const burned = await burn({ privateKey: customer.privateKey, amount: '10' });
    const message = await attested(burned.hash);
    const minted = await mint(customer.privateKey, message.message!, message.attestation!);
    const received = (await usdcBalance(chain('BASE'), shop.wallet.address)) - before;
    expect(received < parseUnits('10', 6)).to.equal(true);
    const created = await report({
      burnTxHash: burned.hash,
      mintTxHash: minted.hash,
      from: customer.address,
      amount: '10',
    });
    const done = await finalStatus(created.body.data.paymentId);
    expect(done).to.include({ status: 'failed', failure_reason: 'underpaid', surplus_amount: null });
    expect(parseUnits(done.received_amount, 6)).to.equal(received);
    expect(parseUnits(done.cctp_fee_amount, 6)).to.equal(parseUnits('10', 6) - received);
    const failed = await waitFor(
      () => h.events.find((e) => e.type === 'payment.failed' && e.body.data.payment_id === done.id),
      'payment.failed',
    );
    expect(failed.body.data).to.include({
      failure_reason: 'underpaid',
      received_amount: done.received_amount,
    });
  });

  const failureOf = async (created: { status: number; body: any }) => {
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const done = await finalStatus(created.body.data.paymentId);
    expect(done.status).to.equal('failed');
    return done.failure_reason as string;
  };

  it('fails a burn that mints to someone else, goes to another domain, burns too little or is no burn', async () => {
    const stranger = Wallet.createRandom().address;
    const a = nextCustomer();
    const toStranger = await burn({ privateKey: a.privateKey, amount: '5', recipient: stranger });
    expect(
      await failureOf(await report({ burnTxHash: toStranger.hash, from: a.address, amount: '5' })),
    ).to.equal('wrong_recipient');

    const b = nextCustomer();
    const toMatic = await burn({ privateKey: b.privateKey, amount: '5', destination: chain('MATIC') });
    expect(
      await failureOf(await report({ burnTxHash: toMatic.hash, from: b.address, amount: '5' })),
    ).to.equal('wrong_domain');

    const c = nextCustomer();
    const small = await burn({ privateKey: c.privateKey, amount: '4' });
    expect(await failureOf(await report({ burnTxHash: small.hash, from: c.address, amount: '5' }))).to.equal(
      'underpaid',
    );

    const d = nextCustomer();
    const usdc = new Contract(chain('ETH').tokens.USDC, fiatTokenAbi(), walletOn(chain('ETH'), d.privateKey));
    const plain = await (await usdc.getFunction('transfer')(stranger, parseUnits('1', 6))).wait();
    expect(await failureOf(await report({ burnTxHash: plain.hash, from: d.address, amount: '1' }))).to.equal(
      'not_a_burn',
    );

    const e = nextCustomer();
    const notTheirs = await burn({ privateKey: e.privateKey, amount: '5' });
    expect(
      await failureOf(await report({ burnTxHash: notTheirs.hash, from: a.address, amount: '5' })),
    ).to.equal('wrong_sender');
  });

  it('fails a burn that is never minted within the configured time', async () => {
    const customer = nextCustomer();
    // Attested, but nobody mints it: not the client, and no forwarding was asked for.
    const burned = await burn({ privateKey: customer.privateKey, amount: '3' });
    const created = await report({ burnTxHash: burned.hash, from: customer.address, amount: '3' });
    expect(await failureOf(created)).to.equal('mint_not_found');
  });

  it('refuses EURC across chains', async () => {
    const r = await h.gw.call('POST', '/payments/create-public', {
      body: {
        merchantId: shop.merchantId,
        txHash: `0x${'ab'.repeat(32)}`,
        amount: '5',
        token: 'EURC',
        chainId: chain('ETH').chainId,
        destinationChainId: chain('BASE').chainId,
        fromAddress: Wallet.createRandom().address,
        toAddress: shop.wallet.address,
        isCrossChain: true,
        bridgeKit: { burnTxHash: `0x${'ab'.repeat(32)}` },
        customerEmail: 'payer@example.com',
      },
    });
    expect(r.status).to.equal(400);
  });
});
