import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { BaseWallet, Contract, JsonRpcProvider, Wallet, parseUnits } from 'ethers';
import { fiatTokenAbi } from '@stablepay/devnet';
import { waitFor, proveSession } from '../support.js';
import { startStackHarness, type Merchant, type StackHarness } from './harness.js';

/**
 * Every documented failure reason, each produced by a real devnet transaction (or the lack of one)
 * and reported through the gateway as a merchant's widget would.
 */
describe('payment failure reasons on the devnet, through the gateway (PostgreSQL, RabbitMQ)', function () {
  this.timeout(180_000);
  let h: StackHarness;
  let shop: Merchant;
  let provider: JsonRpcProvider;

  before(async () => {
    h = await startStackHarness({ TX_NOT_FOUND_AFTER_MS: '3000' });
    shop = await h.register('failures@shop.example');
    provider = new JsonRpcProvider(base().rpcUrl, base().chainId, { staticNetwork: true, cacheTimeout: -1 });
  });
  after(async () => {
    provider?.destroy();
    await h?.close();
  });

  const base = () => h.stack.devnet.chains.find((c) => c.name === 'BASE')!;
  const customer = (i: number) => new Wallet(h.stack.devnet.customers[i]!.privateKey, provider);
  const token = (symbol: 'USDC' | 'EURC', signer: BaseWallet) =>
    new Contract(base().tokens[symbol]!, fiatTokenAbi(), signer);

  const send = async (
    from: BaseWallet,
    symbol: 'USDC' | 'EURC',
    to: string,
    amount: string,
    overrides = {},
  ) => {
    const tx = await token(symbol, from).getFunction('transfer')(to, parseUnits(amount, 6), overrides);
    await tx.wait().catch(() => undefined); // a reverted transaction is mined all the same
    return tx.hash as string;
  };

  const reportAndAwait = async (body: Record<string, unknown>) => {
    const r = await h.gw.call('POST', '/payments/create-public', {
      body: {
        merchantId: shop.merchantId,
        token: 'USDC',
        chainId: base().chainId,
        toAddress: shop.wallet.address,
        customerEmail: 'payer@example.com',
        amount: 5,
        expectedAmount: 5,
        ...body,
      },
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return waitFor(
      async () => {
        const d = await h.gw.call('GET', `/payments/api/${r.body.data.paymentId}`, { headers: shop.key });
        return ['completed', 'failed'].includes(d.body.data?.status) ? d.body.data : undefined;
      },
      'final status',
      30_000,
    );
  };

  it('tx_reverted: a transfer exceeding the balance, mined with a fixed gas limit', async () => {
    const poor = Wallet.createRandom().connect(provider);
    await h.stack.devnet.fund('BASE', poor.address, { native: parseUnits('1', 18) });
    const hash = await send(poor, 'USDC', shop.wallet.address, '5', { gasLimit: 100_000 });
    const p = await reportAndAwait({ txHash: hash, fromAddress: poor.address });
    expect(p).to.include({ status: 'failed', failure_reason: 'tx_reverted' });
  });

  it('wrong_token: EURC sent where USDC was expected', async () => {
    const c = customer(0);
    const hash = await send(c, 'EURC', shop.wallet.address, '5');
    expect(await reportAndAwait({ txHash: hash, fromAddress: c.address })).to.include({
      failure_reason: 'wrong_token',
    });
  });

  it('wrong_recipient: the transfer went to another address', async () => {
    const c = customer(1);
    const hash = await send(c, 'USDC', h.stack.devnet.customers[2]!.address, '5');
    expect(await reportAndAwait({ txHash: hash, fromAddress: c.address })).to.include({
      failure_reason: 'wrong_recipient',
    });
  });

  it('wrong_sender: the transfer came from someone other than the reported payer', async () => {
    const hash = await send(customer(1), 'USDC', shop.wallet.address, '5');
    const p = await reportAndAwait({ txHash: hash, fromAddress: h.stack.devnet.customers[3]!.address });
    expect(p).to.include({ failure_reason: 'wrong_sender' });
  });

  it('chain_mismatch: reported on another chain than the merchant wallet', async () => {
    const c = customer(2);
    const hash = await send(c, 'USDC', shop.wallet.address, '5');
    const eth = h.stack.devnet.chains.find((x) => x.name === 'ETH')!;
    expect(await reportAndAwait({ txHash: hash, fromAddress: c.address, chainId: eth.chainId })).to.include({
      failure_reason: 'chain_mismatch',
    });
  });

  it('tx_not_found: no such transaction, once the configured time has passed', async () => {
    const p = await reportAndAwait({
      txHash: `0x${randomBytes(32).toString('hex')}`,
      fromAddress: customer(3).address,
    });
    expect(p).to.include({ status: 'failed', failure_reason: 'tx_not_found' });
  });

  it('session_expired_before_tx: the transfer predates the checkout session it claims', async () => {
    const c = customer(4);
    const hash = await send(c, 'USDC', shop.wallet.address, '5');
    // Same-second transfers are accepted (block times are whole seconds): open the session once the
    // wall clock is past the transfer's block.
    const block = await provider.getBlock((await provider.getTransactionReceipt(hash))!.blockNumber);
    await waitFor(() => Math.floor(Date.now() / 1000) > block!.timestamp, 'a later second', 10_000);
    const session = await h.gw.call('POST', '/checkout/sessions', {
      headers: shop.key,
      body: { amount: '5', return_url: 'https://shop.example/r' },
    });
    const p = await reportAndAwait(
      proveSession(
        {
          merchantId: shop.merchantId,
          token: 'USDC',
          chainId: base().chainId,
          toAddress: shop.wallet.address,
          amount: 5,
          txHash: hash,
          sessionId: session.body.data.id,
        },
        c.privateKey,
      ),
    );
    expect(p).to.include({ failure_reason: 'session_expired_before_tx' });
  });
});
