import { expect } from 'chai';
import { ChainPaymentVerifiedData } from '@stablepay/contracts';
import { metricValue, waitFor } from '@stablepay/platform/testing';
import type { Devnet } from '@stablepay/devnet';
import { units } from '../support/chain.js';
import {
  checkAuthorization,
  eventsAbout,
  freshWallet,
  publishAuthorization,
  signAuthorization,
} from '../support/gasless.js';
import { startCrossChainGasless, type CrossChainGasless } from '../support/gasless-cross-chain.js';
import type { Harness, Merchant } from '../support/harness.js';
import type { ChainProbe } from '../support/transfers.js';

/**
 * A customer holding USDC on ETH only (no gas anywhere) pays a merchant on BASE with one signature:
 * the relay on ETH submits the authorization to itself, burns through CCTP v2 to the merchant
 * wallet, and mints on BASE once the devnet's attestation service (answering as Circle's) signed.
 */
describe('gasless payments across chains: one signature, the relay submits, burns and mints (anvil + attestation API + PostgreSQL + RabbitMQ)', function () {
  this.timeout(90_000);
  let x: CrossChainGasless;
  let devnet: Devnet;
  let h: Harness;
  let eth: ChainProbe;
  let base: ChainProbe;
  let shop: Merchant;
  let relayEth: string;

  before(async () => {
    x = await startCrossChainGasless();
    ({ devnet, h, eth, base, shop, relayEth } = x);
  });
  after(async () => x?.close());

  const source = () => ({ chainId: devnet.chain('ETH').chainId, blockchain: 'ETH' as const });

  it('refuses an authorization that pays the merchant rather than the relay (422), and takes the relay’s', async () => {
    const payer = freshWallet();
    await devnet.fund('ETH', payer.address, { USDC: units('20') });
    const toMerchant = await signAuthorization(eth, {
      signer: payer,
      to: shop.address,
      value: units('10.02'),
    });
    const refused = await checkAuthorization(h, shop, toMerchant, {
      chainId: devnet.chain('ETH').chainId,
      destinationChainId: shop.chainId,
    });
    expect(refused.status).to.equal(422);
    expect(refused.body.details.map((d: { code: string }) => d.code)).to.deep.equal([
      'authorization_recipient_mismatch',
    ]);
    const toRelay = await signAuthorization(eth, { signer: payer, to: relayEth, value: units('10.02') });
    const checked = await checkAuthorization(h, shop, toRelay, {
      chainId: devnet.chain('ETH').chainId,
      destinationChainId: shop.chainId,
    });
    expect(checked.status, JSON.stringify(checked.body)).to.equal(200);
    expect(checked.body.data.relayer).to.equal(relayEth);
  });

  it('delivers the amount to the merchant wallet on its chain, once, the payer spending no gas', async () => {
    const payer = freshWallet();
    await devnet.fund('ETH', payer.address, { USDC: units('20') });
    const before = await base.balance('USDC', shop.address);
    // The quote's approval and burn, estimated before the relay holds anything to burn.
    const quoted = await h.call(
      `/internal/gasless/gas-estimate?chainId=${source().chainId}&token=USDC&to=${relayEth}&destinationChainId=${shop.chainId}`,
      { caller: 'service' },
    );
    expect(quoted.status, JSON.stringify(quoted.body)).to.equal(200);
    const burnEstimate = BigInt(quoted.body.data.burnGasUnits);
    // amount 10, the relay's gas 0.01 and Circle's fee 0.01, all authorised by the customer
    const authorization = await signAuthorization(eth, {
      signer: payer,
      to: relayEth,
      value: units('10.02'),
    });
    const paymentId = await publishAuthorization(h, shop, authorization, {
      copies: 2,
      amount: '10.000000',
      networkFee: '0.010000',
      cctpFee: '0.010000',
      source: source(),
    });

    const verdict = await h.verdict(paymentId, 60_000);
    expect(verdict.type, JSON.stringify(verdict.data)).to.equal('chain.payment.verified');
    const verified = ChainPaymentVerifiedData.parse(verdict.data);
    expect(verified.chainId).to.equal(shop.chainId);
    expect(verified.toAddress).to.equal(shop.address);
    expect(units(verified.receivedAmount) >= units('10')).to.equal(true);
    expect((await base.balance('USDC', shop.address)) - before >= units('10')).to.equal(true);
    expect(await eth.native(payer.address)).to.equal(0n);
    expect(await eth.balance('USDC', payer.address)).to.equal(units('9.98'));

    const txs = await h.db('gasless_relay_transactions').where({ payment_id: paymentId });
    const count = (action: string) => txs.filter((t) => t.action === action).length;
    expect(count('submit')).to.equal(1);
    expect(count('burn')).to.equal(1);
    expect(count('mint')).to.be.at.most(1);
    const relayed = eventsAbout(h, paymentId).filter((e) => e.type === 'chain.payment.relayed');
    expect(relayed).to.have.length(1);
    const row = await waitFor(async () => {
      const r = await h.db('gasless_payments').where({ payment_id: paymentId }).first();
      return r.step === 'handed_over' ? r : undefined;
    });
    // Every relay transaction a block holds is paid for: the submission, the approval and the burn on
    // ETH, the mint on BASE; each against the merchant's day on its chain and in the payment's figure
    // for that chain (wei of ETH's coin and of BASE's are never added together).
    const paid = async (probe: ChainProbe, actions: string[]) => {
      let wei = 0n;
      for (const t of txs.filter((x) => actions.includes(x.action))) {
        const receipt = await probe.receipt(t.tx_hash);
        if (receipt) wei += BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
      }
      return wei;
    };
    const onEth = await paid(eth, ['submit', 'approve', 'burn']);
    const onBase = await paid(base, ['mint']);
    expect(count('mint')).to.equal(1);
    expect(onBase > 0n).to.equal(true);
    expect(BigInt(row.gas_spent_wei)).to.equal(onEth);
    expect(BigInt(row.destination_gas_spent_wei)).to.equal(onBase);
    const usage = await h.db('gasless_gas_usage').where({ merchant_id: shop.merchantId });
    const spentOn = (chainId: number) =>
      usage.filter((u) => u.chain_id === chainId).map((u) => [BigInt(u.spent_wei), BigInt(u.reserved_wei)]);
    expect(spentOn(devnet.chain('ETH').chainId)).to.deep.equal([[onEth, 0n]]);
    expect(spentOn(shop.chainId)).to.deep.equal([[onBase, 0n]]);
    // The estimate covers what the approval and the burn used, within the relay's gas-limit margin
    // (a quarter, and the burn's refund: the minter's balance goes back to zero), not a blanket
    // figure; once the relay has approved the messenger, the burn alone.
    const used = async (action: string) => {
      let gas = 0n;
      for (const t of txs.filter((x) => x.action === action)) {
        const receipt = await eth.receipt(t.tx_hash);
        if (receipt && BigInt(receipt.status!) === 1n) gas += BigInt(receipt.gasUsed!);
      }
      return gas;
    };
    expect(count('approve')).to.equal(1);
    const approveAndBurn = (await used('approve')) + (await used('burn'));
    const within = (estimate: bigint, gas: bigint) =>
      expect(estimate >= gas && estimate <= (gas * 3n) / 2n, `estimated ${estimate}, used ${gas}`).to.equal(
        true,
      );
    within(burnEstimate, approveAndBurn);
    const again = await h.call(
      `/internal/gasless/gas-estimate?chainId=${source().chainId}&token=USDC&to=${relayEth}&destinationChainId=${shop.chainId}`,
      { caller: 'service' },
    );
    const burnOnly = BigInt(again.body.data.burnGasUnits);
    within(burnOnly, await used('burn'));
    console.log(
      `      approve + burn: estimated ${burnEstimate} gas, used ${approveAndBurn}; burn alone once approved: estimated ${burnOnly}, used ${await used('burn')}`,
    );
    const metrics = await h.metrics();
    expect(
      metricValue(metrics, 'chain_gasless_burn_gas_estimates_total', { chain: 'ETH', outcome: 'estimated' }),
    ).to.be.at.least(1);
    expect(row.burn_units).to.equal(units('10.01').toString());
    expect(row.merchant_receives_units).to.equal(units('10').toString());
  });
});
