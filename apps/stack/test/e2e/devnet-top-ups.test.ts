import { expect } from 'chai';
import { Contract, JsonRpcProvider, Wallet, parseUnits } from 'ethers';
import { fiatTokenAbi } from '@stablepay/devnet';
import { proveSession, waitFor } from '../support.js';
import { startStackHarness, type Merchant, type StackHarness } from './harness.js';

/** A customer pays a checkout session short, then sends the rest from the same wallet. */
describe('top-ups of an underpaid checkout session on the devnet, through the gateway (PostgreSQL, RabbitMQ)', function () {
  this.timeout(180_000);
  let h: StackHarness;
  let shop: Merchant;
  let provider: JsonRpcProvider;

  before(async () => {
    h = await startStackHarness({ RECONCILE_INTERVAL_MS: '1000' });
    shop = await h.register('top-ups@shop.example');
    provider = new JsonRpcProvider(base().rpcUrl, base().chainId, { staticNetwork: true, cacheTimeout: -1 });
  });
  after(async () => {
    provider?.destroy();
    await h?.close();
  });

  const base = () => h.stack.devnet.chains.find((c) => c.name === 'BASE')!;
  const usdc = (signer?: Wallet) => new Contract(base().tokens.USDC, fiatTokenAbi(), signer ?? provider);
  const send = async (from: Wallet, amount: string): Promise<string> => {
    const tx = await usdc(from).getFunction('transfer')(shop.wallet.address, parseUnits(amount, 6));
    await tx.wait();
    return (tx.hash as string).toLowerCase();
  };
  const publicView = async (id: string) =>
    (await h.gw.call('GET', `/checkout/sessions/${id}/public`)).body.data;

  it('keeps the session open for the missing 2 of 5 USDC and completes it when they arrive', async () => {
    const customer = new Wallet(h.stack.devnet.customers[0]!.privateKey, provider);
    const session = await h.gw.call('POST', '/checkout/sessions', {
      headers: shop.key,
      body: { amount: '5', return_url: 'https://shop.example/r' },
    });
    expect(session.status).to.equal(201);
    const sessionId = session.body.data.id as string;

    const first = await send(customer, '3');
    const created = await h.gw.call('POST', '/payments/create-public', {
      body: proveSession(
        {
          merchantId: shop.merchantId,
          token: 'USDC',
          chainId: base().chainId,
          toAddress: shop.wallet.address,
          amount: 5,
          expectedAmount: 5,
          txHash: first,
          sessionId,
          customerEmail: 'payer@example.com',
        },
        h.stack.devnet.customers[0]!.privateKey,
      ),
    });
    expect(created.status).to.equal(201);
    const paymentId = created.body.data.paymentId as string;

    const short = await waitFor(async () => {
      const v = await publicView(sessionId);
      return v.payment?.amount_due ? v : undefined;
    }, 'the payment to await a top-up');
    expect(short.status).to.equal('open');
    expect(short.payment).to.include({
      id: paymentId,
      status: 'pending',
      received_amount: '3.000000',
      amount_due: '2.000000',
    });
    expect(short.payment.from_address.toLowerCase()).to.equal(customer.address.toLowerCase());

    const second = await send(customer, short.payment.amount_due as string);
    const reported = await h.gw.call('POST', `/checkout/sessions/${sessionId}/top-ups`, {
      body: { txHash: second },
    });
    expect(reported.status).to.equal(201);

    const done = await waitFor(async () => {
      const r = await h.gw.call('GET', `/payments/api/${paymentId}`, { headers: shop.key });
      return r.body.data?.status === 'completed' ? r.body.data : undefined;
    }, 'payment completion');
    expect(done).to.include({ received_amount: '5.000000', surplus_amount: '0.000000' });
    expect(
      done.transfers.map((t: { tx_hash: string; amount: string }) => [t.tx_hash, t.amount]),
    ).to.deep.equal([
      [first, '3.000000'],
      [second, '2.000000'],
    ]);
    expect((await publicView(sessionId)).status).to.equal('complete');

    // The ledger holds both transfers as the payment's, and agrees with balanceOf.
    const onChain = (await usdc().getFunction('balanceOf')(shop.wallet.address)) as bigint;
    const wallet = await waitFor(async () => {
      const r = await h.gw.call('GET', '/reconciliation/api/latest', { headers: shop.key });
      const w = r.body.data?.wallets?.find(
        (x: { token: string; onchain_balance: string }) =>
          x.token === 'USDC' && parseUnits(x.onchain_balance, 6) === onChain,
      );
      return w?.difference === '0.000000' ? w : undefined;
    }, 'a reconciliation after the top-up');
    expect(parseUnits(wallet.ledger_balance, 6)).to.equal(onChain);
  });
});
