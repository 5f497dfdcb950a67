import { expect } from 'chai';
import { Contract, JsonRpcProvider, Wallet, parseUnits } from 'ethers';
import { RpcProxy, fiatTokenAbi } from '@stablepay/devnet';
import { TEST_METRICS_TOKEN, metricValue, scrapeMetrics } from '@stablepay/platform/testing';
import { waitFor } from '../support.js';
import { startStackHarness, type Merchant, type StackHarness } from './harness.js';

/**
 * The chain-watcher reaches BASE through a proxy the test breaks in the middle of a payment: the
 * payment stays pending through the outage (never failed), and completes once the node is back.
 */
describe('an RPC outage in the middle of a payment, through the gateway (PostgreSQL, RabbitMQ)', function () {
  this.timeout(120_000);
  const proxy = new RpcProxy();
  let h: StackHarness;
  let shop: Merchant;

  before(async () => {
    const proxyUrl = await proxy.start();
    h = await startStackHarness({
      CHAIN_RPC_URLS_BASE: proxyUrl,
      TX_NOT_FOUND_AFTER_MS: '2000',
      METRICS_TOKEN: TEST_METRICS_TOKEN,
    });
    proxy.target = h.stack.devnet.chains.find((c) => c.name === 'BASE')!.rpcUrl;
    shop = await h.register('outage@shop.example');
  });
  after(async () => {
    await h?.close();
    await proxy.stop();
  });

  const rpcErrors = async (): Promise<number> => {
    const watcher = h.stack.services.find((s) => s.name === 'chain-watcher')!;
    return metricValue(await scrapeMetrics(watcher.url), 'chain_rpc_errors_total', {
      chain: 'BASE',
    });
  };

  it('keeps the payment pending while the node answers 502 or refuses, past the not-found time, then completes it', async () => {
    const base = h.stack.devnet.chains.find((c) => c.name === 'BASE')!;
    const provider = new JsonRpcProvider(base.rpcUrl, base.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    const customer = new Wallet(h.stack.devnet.customers[0]!.privateKey, provider);
    const tx = await new Contract(base.tokens.USDC, fiatTokenAbi(), customer).getFunction('transfer')(
      shop.wallet.address,
      parseUnits('9', 6),
    );
    await tx.wait();
    provider.destroy();

    proxy.mode = 'http_502';
    const errorsBefore = await rpcErrors();
    const created = await h.gw.call('POST', '/payments/create-public', {
      body: {
        merchantId: shop.merchantId,
        txHash: tx.hash,
        amount: 9,
        expectedAmount: 9,
        token: 'USDC',
        chainId: base.chainId,
        fromAddress: customer.address,
        toAddress: shop.wallet.address,
        customerEmail: 'payer@example.com',
      },
    });
    expect(created.status).to.equal(201);
    const reportedAt = Date.now();
    const id = created.body.data.paymentId as string;
    await waitFor(
      async () => (await rpcErrors()) >= errorsBefore + 3,
      'verification attempts failing on 502',
    );
    proxy.mode = 'refuse';
    const refusedFrom = await rpcErrors();
    await waitFor(async () => (await rpcErrors()) >= refusedFrom + 2, 'verification attempts refused');
    // Longer than TX_NOT_FOUND_AFTER_MS: an unreachable node is not a missing transaction.
    await waitFor(() => Date.now() - reportedAt > 3000, 'the not-found time to pass', 10_000);
    await waitFor(async () => (await rpcErrors()) >= refusedFrom + 4, 'more refused attempts after it');
    const during = await h.gw.call('GET', `/payments/api/${id}`, { headers: shop.key });
    expect(during.body.data.status).to.equal('pending');

    proxy.mode = 'up';
    const done = await waitFor(
      async () => {
        const d = (await h.gw.call('GET', `/payments/api/${id}`, { headers: shop.key })).body.data;
        return d.status === 'pending' ? undefined : d;
      },
      'completion after the outage',
      60_000,
    );
    expect(done).to.include({ status: 'completed', received_amount: '9.000000' });
  });
});
