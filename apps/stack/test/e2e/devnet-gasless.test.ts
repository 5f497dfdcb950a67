import { expect } from 'chai';
import { Contract, JsonRpcProvider, Wallet, formatEther, formatUnits, parseUnits } from 'ethers';
import { fiatTokenAbi } from '@stablepay/devnet';
import { transferAuthorizationTypedData } from '@stablepay/contracts';
import { waitFor } from '../support.js';
import { startStackHarness, type Merchant, type StackHarness } from './harness.js';

/**
 * A customer whose wallet holds USDC and no native token pays a checkout session with one
 * signature: the relay submits the authorization, and the payment completes on what the chain shows.
 */
describe('gasless payments on the devnet, through the gateway (PostgreSQL, RabbitMQ)', function () {
  this.timeout(120_000);
  let h: StackHarness;
  let shop: Merchant;

  before(async () => {
    h = await startStackHarness();
    shop = await h.register('gasless-shop@example.com');
  });
  after(async () => h?.close());

  /** Wei of ETH as USDC base units at the devnet's fixed price (3000 USD per ETH), rounded up. */
  const usdcUnitsOf = (wei: bigint): bigint => (wei * 3000n * 10n ** 6n + 10n ** 18n - 1n) / 10n ** 18n;

  const chain = (name = 'BASE') => h.stack.devnet.chains.find((c) => c.name === name)!;

  /** A new wallet holding only `usdc` (a funded devnet customer sends it): no gas of its own. */
  const walletWithOnlyUsdc = async (usdc: string, chainName = 'BASE') => {
    const c = chain(chainName);
    const provider = new JsonRpcProvider(c.rpcUrl, c.chainId, { staticNetwork: true, cacheTimeout: -1 });
    const funder = new Wallet(h.stack.devnet.customers.at(-1)!.privateKey, provider);
    const payer = new Wallet(Wallet.createRandom().privateKey, provider);
    const token = new Contract(c.tokens.USDC!, fiatTokenAbi(), funder);
    await (await token.getFunction('transfer')(payer.address, parseUnits(usdc, 6))).wait();
    return { payer, provider, token };
  };

  const quoteFor = async (sessionId: string, across?: { from: string }) => {
    const q = new URLSearchParams({
      merchantId: shop.merchantId,
      chainId: String(chain(across?.from).chainId),
      token: 'USDC',
      sessionId,
      ...(across ? { destinationChainId: String(chain().chainId) } : {}),
    });
    const r = await h.gw.call('GET', `/payments/gasless-quote?${q}`);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.data;
  };

  const sign = async (payer: Wallet, quote: any) => {
    const message = {
      from: payer.address,
      to: quote.authorization.to,
      value: BigInt(quote.authorization.value),
      validAfter: 0,
      validBefore: Number(quote.authorization.validBefore),
      nonce: quote.authorization.nonce,
    };
    const typed = transferAuthorizationTypedData(quote.domain, message);
    const { EIP712Domain: _domain, ...types } = typed.types;
    const signature = await payer.signTypedData(typed.domain, types, typed.message);
    return { ...typed.message, signature };
  };

  it('completes a session paid by a wallet without gas, once, and the payer spends no gas', async () => {
    const session = await h.gw.call('POST', '/checkout/sessions', {
      headers: shop.key,
      body: { amount: '9.50', currency: 'USDC', return_url: 'https://shop.example/thanks' },
    });
    expect(session.status).to.equal(201);
    const { payer, provider, token } = await walletWithOnlyUsdc('50');
    expect(await provider.getBalance(payer.address)).to.equal(0n);
    const merchantBefore = (await token.getFunction('balanceOf')(shop.wallet.address)) as bigint;

    const started = Date.now();
    const quote = await quoteFor(session.body.data.id);
    expect(quote.authorization.to.toLowerCase()).to.equal(shop.wallet.address.toLowerCase());
    expect(quote.amount).to.equal('9.500000');
    const body = {
      merchantId: shop.merchantId,
      sessionId: session.body.data.id,
      chainId: chain().chainId,
      token: 'USDC',
      authorization: await sign(payer, quote),
      quote,
      customerEmail: 'no-gas@example.com',
    };
    const created = await h.gw.call('POST', '/payments/create-gasless', { body });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const paymentId = created.body.data.paymentId as string;
    const again = await h.gw.call('POST', '/payments/create-gasless', { body });
    expect(again.status).to.equal(200);
    expect(again.body.data.paymentId).to.equal(paymentId);

    const payment = await waitFor(async () => {
      const r = await h.gw.call('GET', `/payments/api/${paymentId}`, { headers: shop.key });
      return ['completed', 'failed'].includes(r.body.data?.status) ? r.body.data : undefined;
    }, 'the gasless payment to finish');
    const elapsed = Date.now() - started;
    expect(payment).to.include({ status: 'completed', funding: 'authorization', amount: '9.500000' });
    expect(payment.tx_hash).to.match(/^0x[0-9a-f]{64}$/);

    // The chain shows it: the merchant received the total, and the payer paid no gas at all.
    const merchantAfter = (await token.getFunction('balanceOf')(shop.wallet.address)) as bigint;
    expect(merchantAfter - merchantBefore).to.equal(BigInt(quote.authorization.value));
    expect(await provider.getBalance(payer.address)).to.equal(0n);
    const receipt = await provider.getTransactionReceipt(payment.tx_hash);
    expect(receipt!.from.toLowerCase()).to.not.equal(payer.address.toLowerCase());

    const session2 = await h.gw.call('GET', `/checkout/sessions/${session.body.data.id}`, {
      headers: shop.key,
    });
    expect(session2.body.data.status).to.equal('complete');
    const [relay] = await h.query<{ gas_spent_wei: string | null }>(
      'select gas_spent_wei from chain_watcher.gasless_payments where payment_id = $1',
      [paymentId],
    );
    // The quote priced at least what the relay really paid (gas used × price paid, at the devnet's
    // fixed 3000 USD per ETH): the network fee charged covers the relay.
    const spentWei = BigInt(relay!.gas_spent_wei!);
    expect(spentWei).to.equal(receipt!.gasUsed * receipt!.gasPrice);
    const relayCostUnits = usdcUnitsOf(spentWei);
    expect(parseUnits(quote.networkFee, 6) >= relayCostUnits, `${quote.networkFee} USDC quoted`).to.equal(
      true,
    );
    console.log(
      `      gasless same-chain: signature → completed ${elapsed} ms; relay gas ${receipt!.gasUsed} units, ${formatEther(spentWei)} ETH = ${formatUnits(relayCostUnits, 6)} USDC; network fee quoted ${quote.networkFee} USDC`,
    );
    provider.destroy();
  });

  it('completes a session paid from another chain by a wallet holding only USDC there, without gas anywhere', async () => {
    const session = await h.gw.call('POST', '/checkout/sessions', {
      headers: shop.key,
      body: { amount: '7.25', currency: 'USDC', return_url: 'https://shop.example/thanks' },
    });
    expect(session.status).to.equal(201);
    expect(shop.wallet.blockchain).to.equal('BASE');
    const { payer, provider } = await walletWithOnlyUsdc('20', 'ETH');
    const base = chain();
    const baseProvider = new JsonRpcProvider(base.rpcUrl, base.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    const baseUsdc = new Contract(base.tokens.USDC!, fiatTokenAbi(), baseProvider);
    const merchantBefore = (await baseUsdc.getFunction('balanceOf')(shop.wallet.address)) as bigint;

    const started = Date.now();
    const quote = await quoteFor(session.body.data.id, { from: 'ETH' });
    expect(quote.destinationChainId).to.equal(base.chainId);
    expect(quote.amount).to.equal('7.250000');
    const created = await h.gw.call('POST', '/payments/create-gasless', {
      body: {
        merchantId: shop.merchantId,
        sessionId: session.body.data.id,
        chainId: chain('ETH').chainId,
        token: 'USDC',
        destinationChainId: base.chainId,
        authorization: await sign(payer, quote),
        quote,
        customerEmail: 'no-gas-anywhere@example.com',
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.data.isCrossChain).to.equal(true);
    const paymentId = created.body.data.paymentId as string;

    const payment = await waitFor(async () => {
      const r = await h.gw.call('GET', `/payments/api/${paymentId}`, { headers: shop.key });
      return ['completed', 'failed'].includes(r.body.data?.status) ? r.body.data : undefined;
    }, 'the cross-chain gasless payment to finish');
    const elapsed = Date.now() - started;
    expect(payment, JSON.stringify(payment)).to.include({ status: 'completed', funding: 'authorization' });
    expect(payment.is_cross_chain).to.equal(true);

    // The merchant received at least the amount on its own chain; the payer paid no gas on either.
    const merchantAfter = (await baseUsdc.getFunction('balanceOf')(shop.wallet.address)) as bigint;
    expect(merchantAfter - merchantBefore >= parseUnits('7.25', 6)).to.equal(true);
    expect(await provider.getBalance(payer.address)).to.equal(0n);
    expect(await baseProvider.getBalance(payer.address)).to.equal(0n);
    const [relay] = await h.query<{ gas_spent_wei: string | null; destination_gas_spent_wei: string | null }>(
      'select gas_spent_wei, destination_gas_spent_wei from chain_watcher.gasless_payments where payment_id = $1',
      [paymentId],
    );
    // The relay's burn shows in the dashboard's view, as for any cross-chain payment.
    const detail = await h.gw.call('GET', `/payments/${paymentId}`, { headers: shop.bearer });
    const [burn] = await h.query<{ burn_tx_hash: string }>(
      'select burn_tx_hash from chain_watcher.gasless_payments where payment_id = $1',
      [paymentId],
    );
    expect(detail.body.data.burn_tx_hash)
      .to.equal(burn!.burn_tx_hash)
      .and.match(/^0x[0-9a-f]{64}$/);
    // Every relay step's gas is counted on the chain that charged it (submission, approval, burn in
    // ETH's coin; mint in BASE's), each priced in its own coin (the devnet's are both ETH at 3000
    // USD), and the quote's network fee covers their sum.
    const sourceWei = BigInt(relay!.gas_spent_wei!);
    const destinationWei = BigInt(relay!.destination_gas_spent_wei!);
    expect(destinationWei > 0n).to.equal(true);
    const relayCostUnits = usdcUnitsOf(sourceWei) + usdcUnitsOf(destinationWei);
    expect(parseUnits(quote.networkFee, 6) >= relayCostUnits, `${quote.networkFee} USDC quoted`).to.equal(
      true,
    );
    console.log(
      `      gasless cross-chain ETH → BASE: signature → completed ${elapsed} ms; relay gas on ETH (submit, approve, burn) ${formatEther(sourceWei)} ETH, on BASE (mint) ${formatEther(destinationWei)} ETH = ${formatUnits(relayCostUnits, 6)} USDC; network fee quoted ${quote.networkFee} USDC, CCTP fee ${quote.cctpFee} USDC`,
    );
    provider.destroy();
    baseProvider.destroy();
  });

  it('refuses an authorization signed for another amount, storing nothing', async () => {
    const session = await h.gw.call('POST', '/checkout/sessions', {
      headers: shop.key,
      body: { amount: '3.00', currency: 'USDC', return_url: 'https://shop.example/thanks' },
    });
    expect(session.status, JSON.stringify(session.body)).to.equal(201);
    const { payer, provider } = await walletWithOnlyUsdc('10');
    const quote = await quoteFor(session.body.data.id);
    const short = { ...quote, authorization: { ...quote.authorization, value: '1000000' } };
    const r = await h.gw.call('POST', '/payments/create-gasless', {
      body: {
        merchantId: shop.merchantId,
        sessionId: session.body.data.id,
        chainId: chain().chainId,
        token: 'USDC',
        authorization: await sign(payer, short),
        quote,
        customerEmail: 'no-gas@example.com',
      },
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(422);
    expect(r.body.details[0].code).to.equal('authorization_value_mismatch');
    const rows = await h.query('select id from payments.payments where lower(from_address) = $1', [
      payer.address.toLowerCase(),
    ]);
    expect(rows).to.deep.equal([]);
    provider.destroy();
  });
});
