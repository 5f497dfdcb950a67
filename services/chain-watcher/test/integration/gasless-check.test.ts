import { expect } from 'chai';
import { Wallet, parseEther, toBeHex } from 'ethers';
import { GaslessCheckResponse } from '@stablepay/contracts';
import { metricValue } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { units } from '../support/chain.js';
import {
  checkAuthorization,
  freshWallet,
  nowSeconds,
  signAuthorization,
  submitAuthorization,
} from '../support/gasless.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import { ChainProbe, devnetRelayerKeys } from '../support/transfers.js';

describe('POST /internal/gasless/check with real signed authorizations (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let h: Harness;
  let base: ChainProbe;
  let shop: Merchant;
  let payer: Wallet;
  let relayer: string;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 0 });
    h = await startHarness({
      registry: devnet.registry(),
      env: { RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet) },
    });
    base = new ChainProbe(devnet.chain('BASE'));
    relayer = devnet.relayers.BASE!.address;
    shop = await h.createMerchant('BASE');
    // A customer with USDC and no gas at all.
    payer = freshWallet();
    await devnet.fund('BASE', payer.address, { USDC: units('100') });
  });
  after(async () => {
    base?.destroy();
    await h?.close();
    await devnet?.stop();
  });

  const sign = (overrides: Partial<Parameters<typeof signAuthorization>[1]> = {}) =>
    signAuthorization(base, { signer: payer, to: shop.address, value: units('10'), ...overrides });

  const expectRefused = async (
    res: Awaited<ReturnType<typeof checkAuthorization>>,
    status: number,
    code: string,
  ) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(res.body.success).to.equal(false);
    expect(res.body.details.map((d: { code: string }) => d.code)).to.deep.equal([code]);
  };

  it('answers the relay, the gas and the gas price of an authorization the relay can submit, and sends nothing', async () => {
    const authorization = await sign();
    const nonceBefore = await base.nonce(relayer);
    const res = await checkAuthorization(h, shop, authorization);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const { data } = GaslessCheckResponse.parse(res.body);
    expect(data.relayer).to.equal(relayer);
    expect(BigInt(data.gasUnits) > 50_000n).to.equal(true);
    expect(BigInt(data.gasPriceWei) > 0n).to.equal(true);
    expect(await base.nonce(relayer, 'pending')).to.equal(nonceBefore);
    expect(await base.balance('USDC', payer.address)).to.equal(units('100'));
    // The price is kept for the payment that follows, which reserves it against the merchant's budget.
    const quote = await h.db('gasless_gas_quotes').where({ nonce: authorization.nonce }).first();
    expect(BigInt(quote.gas_wei)).to.equal(BigInt(data.gasUnits) * BigInt(data.gasPriceWei));
  });

  it('refuses a signature that is not the payer’s (422 authorization_signature_invalid)', async () => {
    const forged = await sign({ signer: freshWallet(), from: payer.address });
    await expectRefused(await checkAuthorization(h, shop, forged), 422, 'authorization_signature_invalid');
  });

  it('refuses an authorization whose nonce was used already (422 authorization_nonce_used)', async () => {
    const authorization = await sign({ value: units('1') });
    const gasPayer = freshWallet();
    await devnet.fund('BASE', gasPayer.address, { native: parseEther('1') });
    await submitAuthorization(base, gasPayer, authorization);
    await expectRefused(await checkAuthorization(h, shop, authorization), 422, 'authorization_nonce_used');
  });

  it('refuses more than the payer holds (422 authorization_insufficient_balance)', async () => {
    const authorization = await sign({ value: units('1000') });
    await expectRefused(
      await checkAuthorization(h, shop, authorization),
      422,
      'authorization_insufficient_balance',
    );
  });

  it('refuses an expired authorization, one not valid yet, and one valid too long (422)', async () => {
    const expired = await sign({ validAfter: nowSeconds() - 600, validBefore: nowSeconds() - 1 });
    await expectRefused(await checkAuthorization(h, shop, expired), 422, 'authorization_expired');
    const early = await sign({ validAfter: nowSeconds() + 300 });
    await expectRefused(await checkAuthorization(h, shop, early), 422, 'authorization_not_yet_valid');
    const long = await sign({ validBefore: nowSeconds() + 7200 });
    await expectRefused(await checkAuthorization(h, shop, long), 422, 'authorization_window_too_long');
  });

  it('refuses an authorization that pays anyone but the merchant wallet (422 authorization_recipient_mismatch)', async () => {
    const elsewhere = await sign({ to: Wallet.createRandom().address });
    await expectRefused(
      await checkAuthorization(h, shop, elsewhere),
      422,
      'authorization_recipient_mismatch',
    );
  });

  it('refuses a token or chain the relay does not serve (422 token_not_supported)', async () => {
    const authorization = await sign();
    await expectRefused(
      await checkAuthorization(h, shop, authorization, { chainId: 424242 }),
      422,
      'token_not_supported',
    );
    await expectRefused(
      await checkAuthorization(h, shop, authorization, { destinationChainId: 424242 }),
      422,
      'token_not_supported',
    );
  });

  it('refuses with 429 once the merchant’s daily relay gas budget is spent', async () => {
    const day = new Date().toISOString().slice(0, 10);
    await h.db('gasless_gas_usage').insert({
      merchant_id: shop.merchantId,
      chain_id: shop.chainId,
      day,
      spent_wei: 50_000_000_000_000_000n.toString(),
    });
    try {
      const res = await checkAuthorization(h, shop, await sign());
      await expectRefused(res, 429, 'relay_gas_budget_spent');
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
    } finally {
      await h.db('gasless_gas_usage').where({ merchant_id: shop.merchantId }).delete();
    }
    const metrics = await h.metrics();
    expect(
      metricValue(metrics, 'chain_gasless_refusals_total', { chain: 'BASE', code: 'relay_gas_budget_spent' }),
    ).to.equal(1);
  });

  it('refuses with 503 and Retry-After while the relay is low on gas', async () => {
    const before = await base.native(relayer);
    await base.provider.send('anvil_setBalance', [relayer, toBeHex(1_000_000n)]);
    try {
      const res = await checkAuthorization(h, shop, await sign());
      await expectRefused(res, 503, 'relay_low_on_gas');
      expect(res.headers.get('retry-after')).to.equal('300');
    } finally {
      await base.provider.send('anvil_setBalance', [relayer, toBeHex(before)]);
    }
    expect((await checkAuthorization(h, shop, await sign())).status).to.equal(200);
  });
});
