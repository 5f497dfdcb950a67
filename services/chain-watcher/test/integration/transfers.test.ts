import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { WalletBalanceResponse, baseUnitsToDecimal } from '@stablepay/contracts';
import { metricValue, waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { authorizationNonce } from '../../src/chain/fiat-token.js';
import { units } from '../support/chain.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import {
  ChainProbe,
  attemptRows,
  devnetRelayerKeys,
  requestTransfer,
  transferEvents,
  transferOutcome,
  transferRow,
} from '../support/transfers.js';

const recipient = () => Wallet.createRandom().address;

describe('outgoing transfers: EIP-3009 through the relayer (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let h: Harness;
  let base: ChainProbe;
  let shop: Merchant;
  let relayer: string;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 1 });
    h = await startHarness({
      registry: devnet.registry(),
      // ETH gets no configured key: its relayer is derived from the master seed.
      env: { RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet, ['BASE', 'MATIC']), TRANSFER_POLL_MS: '50' },
    });
    base = new ChainProbe(devnet.chain('BASE'));
    relayer = devnet.relayers.BASE!.address;
    shop = await h.createMerchant('BASE');
    await devnet.fund('BASE', shop.address, { USDC: units('100'), EURC: units('5') });
  });
  after(async () => {
    base?.destroy();
    await h?.close();
    await devnet?.stop();
  });

  it('moves the amount from a merchant wallet holding no gas; the relayer pays; submitted then confirmed, once each', async () => {
    expect(await base.native(shop.address)).to.equal(0n);
    const to = recipient();
    const relayerBefore = await base.native(relayer);
    const key = await requestTransfer(h, { merchant: shop, toAddress: to, amount: '10.5' });

    const confirmed = await transferOutcome(h, key);
    expect(confirmed.type).to.equal('transfer.confirmed');
    expect(await base.balance('USDC', to)).to.equal(units('10.5'));
    expect(await base.balance('USDC', shop.address)).to.equal(units('89.5'));
    expect(await base.native(shop.address)).to.equal(0n);

    const receipt = (await base.receipt(confirmed.data.txHash))!;
    const tx = (await base.transaction(confirmed.data.txHash))!;
    expect(receipt.status).to.equal('0x1');
    expect(tx.from.toLowerCase()).to.equal(relayer.toLowerCase());
    expect(tx.to!.toLowerCase()).to.equal(devnet.chain('BASE').tokens.USDC.toLowerCase());
    expect(tx.input.slice(0, 10)).to.equal('0xe3ee160e'); // transferWithAuthorization(..., v, r, s)
    const gas = BigInt(receipt.gasUsed!) * BigInt(receipt.effectiveGasPrice!);
    expect(relayerBefore - (await base.native(relayer))).to.equal(gas);
    // The token recorded the nonce derived from the key: no second transfer for it can ever pass.
    expect(
      await base.token('USDC').getFunction('authorizationState')(shop.address, authorizationNonce(key)),
    ).to.equal(true);

    await h.events.drain();
    const events = transferEvents(h, key);
    expect(events.map((e) => e.type)).to.deep.equal(['transfer.submitted', 'transfer.confirmed']);
    expect(events[0]!.data).to.deep.equal({
      idempotencyKey: key,
      purpose: 'refund',
      txHash: confirmed.data.txHash,
      blockchain: 'BASE',
    });
    expect(confirmed.data).to.deep.equal({
      idempotencyKey: key,
      purpose: 'refund',
      txHash: confirmed.data.txHash,
      blockNumber: Number(BigInt(receipt.blockNumber!)),
    });
    expect(confirmed.merchantId).to.equal(shop.merchantId);
    expect(confirmed.producer).to.equal('chain-watcher');
    expect(await transferRow(h, key)).to.include({ status: 'confirmed', tx_hash: confirmed.data.txHash });
    const text = await h.metrics();
    expect(metricValue(text, 'chain_transfers_total', { chain: 'BASE', outcome: 'confirmed' })).to.equal(1);
  });

  it('sends one transfer for a command delivered three times, and answers a later repeat with the known outcome', async () => {
    const to = recipient();
    const key = randomUUID();
    // The same envelope twice (a broker redelivery), and the same command again under a new id.
    await requestTransfer(
      h,
      { merchant: shop, toAddress: to, amount: '2', idempotencyKey: key, purpose: 'withdrawal' },
      2,
    );
    await requestTransfer(h, {
      merchant: shop,
      toAddress: to,
      amount: '2.000000',
      idempotencyKey: key,
      purpose: 'withdrawal',
    });
    const confirmed = await transferOutcome(h, key);
    expect(confirmed.type).to.equal('transfer.confirmed');
    expect(confirmed.data.purpose).to.equal('withdrawal');
    await waitFor(async () => (await h.db('outbox').whereNull('published_at').count('* as n'))[0]!.n === '0');
    await h.events.drain();
    expect(transferEvents(h, key).map((e) => e.type)).to.deep.equal([
      'transfer.submitted',
      'transfer.confirmed',
    ]);
    expect(await base.transfersTo('USDC', to)).to.deep.equal([
      { txHash: confirmed.data.txHash, value: units('2') },
    ]);
    expect(await h.db('transfers').where({ idempotency_key: key }).count('* as n')).to.deep.equal([
      { n: '1' },
    ]);
    expect(await attemptRows(h, key)).to.have.length(1);

    // Asked again after the answer: the same answer, and nothing more on the chain.
    await requestTransfer(h, {
      merchant: shop,
      toAddress: to,
      amount: '2',
      idempotencyKey: key,
      purpose: 'withdrawal',
    });
    await waitFor(() => transferEvents(h, key).filter((e) => e.type === 'transfer.confirmed').length === 2);
    const repeated = transferEvents(h, key).filter((e) => e.type === 'transfer.confirmed');
    expect(repeated[1]!.data).to.deep.equal(confirmed.data);
    expect(await base.transfersTo('USDC', to)).to.have.length(1);

    // The same key with other content is a requester's bug: dead-lettered, the first command stands.
    await requestTransfer(h, {
      merchant: shop,
      toAddress: to,
      amount: '3',
      idempotencyKey: key,
      purpose: 'withdrawal',
    });
    const dead = await waitFor(async () =>
      (await h.bus.peekDeadLetters('chain-watcher')).find(
        (d) => (d.message.body.data as { idempotencyKey?: string }).idempotencyKey === key,
      ),
    );
    expect(dead.error).to.match(/already requested with other content/);
    expect(await base.transfersTo('USDC', to)).to.have.length(1);
  });

  it('fails insufficient_funds with a clear reason and sends nothing', async () => {
    const to = recipient();
    const nonceBefore = await base.nonce(relayer);
    const key = await requestTransfer(h, {
      merchant: shop,
      toAddress: to,
      amount: '5.000001',
      token: 'EURC',
    });
    const failed = await transferOutcome(h, key);
    expect(failed.type).to.equal('transfer.failed');
    expect(failed.data).to.deep.include({
      idempotencyKey: key,
      purpose: 'refund',
      code: 'insufficient_funds',
      txHash: null,
    });
    expect(failed.data.reason).to.equal(
      `insufficient funds: the merchant wallet ${shop.address} holds 5.000000 EURC on BASE, the transfer needs 5.000001 EURC`,
    );
    expect(await base.balance('EURC', to)).to.equal(0n);
    expect(await base.nonce(relayer)).to.equal(nonceBefore);
    expect(await attemptRows(h, key)).to.have.length(0);
    await h.events.drain();
    expect(transferEvents(h, key).map((e) => e.type)).to.deep.equal(['transfer.failed']);
  });

  it('refuses what can never be carried out with invalid_request: no wallet, another chain, a token the chain lacks, a zero amount', async () => {
    const to = recipient();
    const polygonShop = await h.createMerchant('MATIC');
    const cases: Array<[Parameters<typeof requestTransfer>[1], RegExp]> = [
      [
        { merchant: shop, merchantId: randomUUID(), toAddress: to, amount: '1' },
        /has no wallet held by this service/,
      ],
      [{ merchant: shop, blockchain: 'ETH', toAddress: to, amount: '1' }, /wallet is on BASE, not ETH/],
      [
        { merchant: polygonShop, token: 'EURC', toAddress: to, amount: '1' },
        /EURC is not available on MATIC/,
      ],
      [{ merchant: shop, toAddress: to, amount: '0.000000' }, /greater than 0/],
    ];
    for (const [input, reason] of cases) {
      const key = await requestTransfer(h, input);
      const failed = await transferOutcome(h, key);
      expect(failed.type, String(reason)).to.equal('transfer.failed');
      expect(failed.data.code).to.equal('invalid_request');
      expect(failed.data.reason).to.match(reason);
    }
    expect(await base.transfersTo('USDC', to)).to.deep.equal([]);
  });

  it('GET /internal/wallets/:merchantId/balances answers services with the wallet balances', async () => {
    const res = await h.call(`/internal/wallets/${shop.merchantId}/balances`, { caller: 'service' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(WalletBalanceResponse.safeParse(res.body).success).to.equal(true);
    const usdc = await base.balance('USDC', shop.address);
    expect(res.body.data).to.deep.equal({
      wallet_id: shop.walletId,
      address: shop.address,
      blockchain: 'BASE',
      balances: [
        { token: 'USDC', amount: baseUnitsToDecimal(usdc) },
        { token: 'EURC', amount: '5.000000' },
      ],
    });
    const missing = await h.call(`/internal/wallets/${randomUUID()}/balances`, { caller: 'service' });
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal({ success: false, error: 'Wallet not found', details: [] });
    const asMerchant = await h.call(`/internal/wallets/${shop.merchantId}/balances`, {
      merchantId: shop.merchantId,
    });
    expect(asMerchant.status).to.equal(403);
  });

  it('GET /internal/relayers lists each chain relayer to fund, never a key', async () => {
    const res = await h.call('/internal/relayers', { caller: 'service' });
    expect(res.status).to.equal(200);
    const relayers = res.body.data.relayers as Array<Record<string, unknown>>;
    expect(relayers.map((r) => r.blockchain)).to.deep.equal(devnet.chains.map((c) => c.name));
    const baseRelayer = relayers.find((r) => r.blockchain === 'BASE')!;
    expect(baseRelayer).to.include({
      address: relayer,
      source: 'configured',
      chainId: devnet.chain('BASE').chainId,
    });
    expect(BigInt(baseRelayer.nativeBalanceWei as string)).to.equal(await base.native(relayer));
    const ethRelayer = relayers.find((r) => r.blockchain === 'ETH')!;
    expect(ethRelayer).to.include({ source: 'derived', nativeBalanceWei: '0' });
    expect(ethRelayer.address).to.not.equal(devnet.relayers.ETH!.address);
    const text = JSON.stringify(res.body).toLowerCase();
    for (const account of Object.values(devnet.relayers)) {
      expect(text).to.not.include(account!.privateKey.slice(2).toLowerCase());
    }
    expect((await h.call('/internal/relayers', { merchantId: shop.merchantId })).status).to.equal(403);
  });

  it('sends through the relayer derived from the master seed once the operator funds it', async () => {
    const eth = new ChainProbe(devnet.chain('ETH'));
    try {
      const listed = (await h.call('/internal/relayers', { caller: 'service' })).body.data.relayers;
      const derived = listed.find((r: { blockchain: string }) => r.blockchain === 'ETH').address as string;
      const ethShop = await h.createMerchant('ETH');
      await devnet.fund('ETH', ethShop.address, { EURC: units('9') });
      await devnet.fund('ETH', derived, { native: 10n ** 18n });
      const to = recipient();
      const key = await requestTransfer(h, { merchant: ethShop, toAddress: to, amount: '9', token: 'EURC' });
      const confirmed = await transferOutcome(h, key);
      expect(confirmed.type).to.equal('transfer.confirmed');
      expect((await eth.transaction(confirmed.data.txHash))!.from.toLowerCase()).to.equal(
        derived.toLowerCase(),
      );
      expect(await eth.balance('EURC', to)).to.equal(units('9'));
      expect(await eth.native(ethShop.address)).to.equal(0n);
    } finally {
      eth.destroy();
    }
  });
});
