import { expect } from 'chai';
import { Wallet } from 'ethers';
import type { GaslessQuote, TransferAuthorization } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import type { GaslessRelayServer } from '../support/gasless-relay-server.js';
import { crossChainQuote, getQuote, openSession, signAuthorization, startRelay } from '../support/gasless.js';
import {
  actingAs,
  randomAddress,
  randomTxHash,
  startHarness,
  type Harness,
  type TestMerchant,
} from '../support/harness.js';

const bodyOf = (
  quote: GaslessQuote | undefined,
  authorization: TransferAuthorization,
  sessionId: string,
) => ({
  merchantId: quote?.merchantId,
  sessionId,
  chainId: 31337,
  token: 'USDC',
  authorization,
  ...(quote ? { quote } : {}),
  customerEmail: 'buyer@example.test',
});

/** From acceptance to a final status: the relay's transaction, then the chain's verdict. */
describe('gasless payments after acceptance (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let relay: GaslessRelayServer;
  let shop: TestMerchant;

  before(async () => {
    relay = await startRelay();
    h = await startHarness({ CHAIN_WATCHER_URL: relay.url });
    shop = await h.seedMerchant({ wallet: true, currencies: ['USDC'] });
  });
  after(async () => {
    await h?.close();
    await relay?.close();
  });

  const accepted = async (wallet = Wallet.createRandom()) => {
    const sessionId = await openSession(h, shop);
    const quote = await getQuote(h, { merchantId: shop.publicId, chainId: 31337, token: 'USDC', sessionId });
    const authorization = await signAuthorization(wallet, quote.domain, quote.authorization);
    const res = await h.call('POST', '/payments/create-gasless', {
      body: bodyOf(quote, authorization, sessionId),
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return { id: res.body.data.paymentId as string, sessionId, quote, authorization, wallet };
  };
  const fromChainWatcher = { producer: 'chain-watcher' as const, merchantId: undefined };
  const relayed = (id: string, txHash: string) =>
    h.publish(
      'chain.payment.relayed',
      { paymentId: id, merchantId: shop.merchantId, chainId: 31337, txHash, relayer: randomAddress() },
      { ...fromChainWatcher, merchantId: shop.merchantId },
    );
  const detail = async (id: string) => (await h.call('GET', `/payments/api/${id}`, actingAs(shop))).body.data;

  it('shows the relay’s transaction while pending, then completes with the transaction that used the authorization', async () => {
    const p = await accepted();
    const before = await detail(p.id);
    expect(before).to.include({ status: 'pending', tx_hash: '', funding: 'authorization' });
    const sent = randomTxHash();
    await relayed(p.id, sent.toUpperCase().replace('0X', '0x'));
    await waitFor(async () => ((await detail(p.id)).tx_hash === sent ? true : undefined));
    // A replacement with a bumped fee is a new hash.
    const replacement = randomTxHash();
    await relayed(p.id, replacement);
    await waitFor(async () => ((await detail(p.id)).tx_hash === replacement ? true : undefined));
    // Someone else submitted the authorization first: the chain's verdict names their transaction.
    const used = randomTxHash();
    await h.publish(
      'chain.payment.verified',
      {
        paymentId: p.id,
        txHash: used,
        chainId: 31337,
        token: 'USDC',
        fromAddress: p.wallet.address,
        toAddress: shop.wallet!,
        receivedAmount: p.quote.total,
        blockNumber: 42,
        blockTimestamp: new Date().toISOString(),
        confirmations: 1,
      },
      { ...fromChainWatcher, merchantId: shop.merchantId },
    );
    const done = await waitFor(async () => {
      const d = await detail(p.id);
      return d.status === 'completed' ? d : undefined;
    });
    expect(done).to.include({
      tx_hash: used,
      funding: 'authorization',
      amount: '25.000000',
      expected_amount: '25.540000',
      received_amount: '25.540000',
      // the fees the customer authorised are not a surplus
      surplus_amount: '0.000000',
    });
    const session = await h.db('checkout_sessions').where({ id: p.sessionId }).first();
    expect(session.status).to.equal('complete');
    // A late relayed event changes nothing once the payment is final.
    await relayed(p.id, randomTxHash());
    const list = await h.call('GET', '/payments/api/list?limit=100', actingAs(shop));
    const item = list.body.data.payments.find((x: { id: string }) => x.id === p.id);
    expect(item).to.include({ tx_hash: used, funding: 'authorization' });
    const internal = await h.call('GET', `/internal/merchants/${shop.merchantId}/payments/${p.id}`, {
      caller: 'service',
    });
    expect(internal.body.data).to.include({ funding: 'authorization', tx_hash: used });
  });

  it('fails on the verdict and releases the session, which the payer may then pay with a new signature', async () => {
    const p = await accepted();
    await h.publish(
      'chain.payment.rejected',
      {
        paymentId: p.id,
        txHash: randomTxHash(),
        reason: 'tx_reverted',
        receivedAmount: null,
        detail: 'the relay transaction reverted',
      },
      { ...fromChainWatcher, merchantId: shop.merchantId },
    );
    await waitFor(async () => ((await detail(p.id)).status === 'failed' ? true : undefined));
    const session = await h.db('checkout_sessions').where({ id: p.sessionId }).first();
    expect(session.payment_id).to.equal(null);
    // The failed payment's own authorization still answers that payment.
    const replay = await h.call('POST', '/payments/create-gasless', {
      body: bodyOf(p.quote, p.authorization, p.sessionId),
    });
    expect(replay.status).to.equal(200);
    expect(replay.body.data).to.deep.equal({ paymentId: p.id, status: 'failed', isCrossChain: false });
    // The same session's nonce, a new quote and signature: a new payment.
    const quote = await getQuote(h, {
      merchantId: shop.publicId,
      chainId: 31337,
      token: 'USDC',
      sessionId: p.sessionId,
    });
    expect(quote.authorization.nonce).to.equal(p.quote.authorization.nonce);
    const again = await signAuthorization(p.wallet, quote.domain, {
      ...quote.authorization,
      validAfter: String(Math.floor(Date.now() / 1000) - 60),
    });
    const res = await h.call('POST', '/payments/create-gasless', { body: bodyOf(quote, again, p.sessionId) });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data.paymentId).to.not.equal(p.id);
  });

  it("shows a cross-chain payment's burn once the relay's burn is verified, as for any cross-chain payment", async () => {
    const wallet = Wallet.createRandom();
    const cross = await crossChainQuote(h, shop.publicId, '7');
    const authorization = await signAuthorization(wallet, cross.domain, cross.authorization);
    const res = await h.call('POST', '/payments/create-gasless', {
      body: {
        ...bodyOf(cross, authorization, ''),
        sessionId: undefined,
        chainId: 31338,
        destinationChainId: 31337,
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = res.body.data.paymentId as string;
    // The dashboard's view (GET /payments/:id) carries the cross-chain fields.
    const merchantDetail = async (pid: string) =>
      (await h.call('GET', `/payments/${pid}`, { ...actingAs(shop), caller: 'user' })).body.data;
    expect(await merchantDetail(id)).to.include({ is_cross_chain: true, burn_tx_hash: null });
    const burnTxHash = randomTxHash();
    const burnVerified = (hash: string) =>
      h.publish(
        'chain.cctp.burn_verified',
        {
          paymentId: id,
          flow: 'bridge_kit',
          burnTxHash: hash,
          sourceChainId: 31338,
          sourceDomain: 3,
          destinationDomain: 6,
          amount: '7.1',
          mintRecipient: shop.wallet!,
          blockNumber: 10,
        },
        { ...fromChainWatcher, merchantId: shop.merchantId },
      );
    await burnVerified(burnTxHash);
    await waitFor(async () => ((await merchantDetail(id)).burn_tx_hash === burnTxHash ? true : undefined));
    // A burn, once known, is never replaced.
    await burnVerified(randomTxHash());
    const mintTxHash = randomTxHash();
    await h.publish(
      'chain.cctp.minted',
      {
        paymentId: id,
        flow: 'bridge_kit',
        mintTxHash,
        destinationChainId: 31337,
        recipient: shop.wallet!,
        mintedAmount: '7.09',
        blockNumber: 11,
      },
      { ...fromChainWatcher, merchantId: shop.merchantId },
    );
    const seen = await waitFor(async () => {
      const d = await merchantDetail(id);
      return d.mint_tx_hash === mintTxHash ? d : undefined;
    });
    expect(seen.burn_tx_hash).to.equal(burnTxHash);
  });

  it('keeps transfer payments as they were: funding transfer, their own hash', async () => {
    const txHash = randomTxHash();
    const res = await h.call('POST', '/payments/create-public', {
      body: {
        merchantId: shop.publicId,
        txHash,
        amount: '3',
        expectedAmount: '3',
        token: 'USDC',
        chainId: 31337,
        fromAddress: randomAddress(),
        toAddress: shop.wallet,
        customerEmail: 'b@example.test',
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(await detail(res.body.data.paymentId)).to.include({ funding: 'transfer', tx_hash: txHash });
  });
});

describe('gasless payments whose fees the merchant bears (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let relay: GaslessRelayServer;
  let shop: TestMerchant;

  before(async () => {
    relay = await startRelay();
    h = await startHarness({ CHAIN_WATCHER_URL: relay.url, GASLESS_FEE_BEARER: 'merchant' });
    shop = await h.seedMerchant({ wallet: true, currencies: ['USDC'] });
  });
  after(async () => {
    await h?.close();
    await relay?.close();
  });

  it('quotes the amount alone, and takes a session’s authorization without a quote at the relay’s own gas', async () => {
    const sessionId = await openSession(h, shop);
    const quote = await getQuote(h, { merchantId: shop.publicId, chainId: 31337, token: 'USDC', sessionId });
    expect(quote).to.include({ feeBearer: 'merchant', networkFee: '0.540000', total: '25.000000' });
    expect(quote.authorization.value).to.equal('25000000');
    const wallet = Wallet.createRandom();
    const authorization = await signAuthorization(wallet, quote.domain, quote.authorization);
    const body = { ...bodyOf(undefined, authorization, sessionId), merchantId: shop.publicId };
    const res = await h.call('POST', '/payments/create-gasless', { body });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const row = await h.db('payments').where({ id: res.body.data.paymentId }).first();
    // 85,000 gas (the relay's estimate) × 2 gwei × 3000 USD/ETH
    expect(row).to.include({ fee_bearer: 'merchant', network_fee: '0.510000', expected_amount: '25.000000' });
  });
});
