import { expect } from 'chai';
import { Wallet } from 'ethers';
import { waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { units } from '../support/chain.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import { RpcProxy } from '@stablepay/devnet';
import {
  ChainProbe,
  devnetRelayerKeys,
  requestTransfer,
  transferEvents,
  transferOutcome,
  transferRow,
} from '../support/transfers.js';

const UNAVAILABLE_AFTER_MS = 1_000;

describe('outgoing transfers while the chain RPC fails (anvil behind a breakable proxy)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let h: Harness;
  let base: ChainProbe;
  let shop: Merchant;
  const proxy = new RpcProxy();

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 0 });
    const registry = devnet.registry();
    const url = await proxy.start(devnet.chain('BASE').rpcUrl);
    h = await startHarness({
      registry: {
        ...registry,
        chains: registry.chains.map((c) => (c.name === 'BASE' ? { ...c, rpcUrls: [url] } : c)),
      },
      env: {
        RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet),
        // Slow enough to catch a transfer between its broadcast and the next look at it.
        TRANSFER_POLL_MS: '400',
        TRANSFER_MAX_BACKOFF_MS: '100',
        TRANSFER_CHAIN_UNAVAILABLE_AFTER_MS: String(UNAVAILABLE_AFTER_MS),
      },
    });
    base = new ChainProbe(devnet.chain('BASE'));
    shop = await h.createMerchant('BASE');
    await devnet.fund('BASE', shop.address, { USDC: units('20') });
  });
  afterEach(() => {
    proxy.mode = 'up';
  });
  after(async () => {
    base?.destroy();
    await h?.close();
    await proxy.stop();
    await devnet?.stop();
  });

  it('keeps retrying through a short outage, then sends', async () => {
    proxy.mode = 'refuse';
    const to = Wallet.createRandom().address;
    const key = await requestTransfer(h, { merchant: shop, toAddress: to, amount: '1' });
    const failing = await waitFor(async () => {
      const row = await transferRow(h, key);
      return row?.rpc_failing_since && row;
    });
    expect(failing).to.include({ status: 'pending' });
    expect(failing.last_error).to.match(/BASE RPC unavailable/);
    proxy.mode = 'up';
    expect((await transferOutcome(h, key)).type).to.equal('transfer.confirmed');
    expect(await base.balance('USDC', to)).to.equal(units('1'));
  });

  it('fails chain_unavailable when nothing was signed and the chain stayed unreachable', async () => {
    proxy.mode = 'http_502';
    const to = Wallet.createRandom().address;
    const key = await requestTransfer(h, { merchant: shop, toAddress: to, amount: '1' });
    const failed = await transferOutcome(h, key);
    expect(failed.data).to.deep.include({ code: 'chain_unavailable', txHash: null });
    expect(failed.data.reason).to.match(/BASE could not be reached for \d+ s; nothing was sent/);
    const row = await transferRow(h, key);
    expect(new Date(row.completed_at).getTime() - new Date(row.created_at).getTime()).to.be.at.least(
      UNAVAILABLE_AFTER_MS,
    );
    proxy.mode = 'up';
    expect(await base.balance('USDC', to)).to.equal(0n);
  });

  it('never gives up on a transfer it has signed: the outcome waits for the chain however long it fails', async () => {
    const to = Wallet.createRandom().address;
    const key = await requestTransfer(h, { merchant: shop, toAddress: to, amount: '2.5' });
    await waitFor(async () => (await transferRow(h, key))?.status === 'sending', 10_000, 'sending');
    proxy.mode = 'refuse';
    await waitFor(
      async () => {
        const row = await transferRow(h, key);
        return (
          row.rpc_failing_since &&
          Date.now() - new Date(row.rpc_failing_since).getTime() > UNAVAILABLE_AFTER_MS + 300
        );
      },
      10_000,
      'a long outage',
    );
    expect(await transferRow(h, key)).to.include({ status: 'sending' });
    proxy.mode = 'up';
    const confirmed = await transferOutcome(h, key);
    expect(confirmed.type).to.equal('transfer.confirmed');
    expect(await base.transfersTo('USDC', to)).to.deep.equal([
      { txHash: confirmed.data.txHash, value: units('2.5') },
    ]);
    await h.events.drain();
    expect(transferEvents(h, key).map((e) => e.type)).to.deep.equal([
      'transfer.submitted',
      'transfer.confirmed',
    ]);
  });
});
