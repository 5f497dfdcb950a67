import { expect } from 'chai';
import { id, zeroPadValue } from 'ethers';
import { ChainPaymentVerifiedData } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { units } from '../support/chain.js';
import { freshWallet, publishAuthorization, signAuthorization } from '../support/gasless.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import { ChainProbe, devnetRelayerKeys } from '../support/transfers.js';

const STUCK_AFTER_MS = 800;
const AUTHORIZATION_USED = id('AuthorizationUsed(address,bytes32)');

/**
 * The relay's submission of a customer's authorization stuck in the pool (no block takes it): the
 * relayer engine replaces it under the same nonce with higher fees, and the payment completes with
 * exactly one transferWithAuthorization on the chain, the replacement's.
 */
describe('gasless payments: a stuck relay submission is replaced and the payment still completes once (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let h: Harness;
  let base: ChainProbe;
  let shop: Merchant;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 0 });
    h = await startHarness({
      registry: devnet.registry(),
      env: {
        RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet),
        TRANSFER_POLL_MS: '50',
        TRANSFER_MAX_BACKOFF_MS: '300',
        TRANSFER_LEASE_MS: '2000',
        TRANSFER_STUCK_AFTER_MS: String(STUCK_AFTER_MS),
      },
    });
    base = new ChainProbe(devnet.chain('BASE'));
    shop = await h.createMerchant('BASE');
  });
  after(async () => {
    await base?.setAutomine(true).catch(() => undefined);
    base?.destroy();
    await h?.close();
    await devnet?.stop();
  });

  const attempts = (paymentId: string) =>
    h.db('gasless_relay_transactions').where({ payment_id: paymentId }).orderBy('attempt');

  it('replaces the stuck submission with the same nonce and fees raised 12.5%; one transferWithAuthorization lands', async () => {
    const payer = freshWallet();
    await devnet.fund('BASE', payer.address, { USDC: units('20') });
    const authorization = await signAuthorization(base, {
      signer: payer,
      to: shop.address,
      value: units('7.01'),
    });
    const before = await base.balance('USDC', shop.address);
    await base.setAutomine(false);
    let paymentId: string;
    let first: Record<string, string>;
    let second: Record<string, string>;
    try {
      paymentId = await publishAuthorization(h, shop, authorization);
      [first, second] = await waitFor(
        async () => {
          const rows = await attempts(paymentId);
          return rows.length >= 2 && rows.slice(0, 2).every((r) => r.broadcast_at !== null)
            ? rows
            : undefined;
        },
        20_000,
        'the submission and its replacement in the pool',
      );
      expect(second).to.include({
        kind: 'replacement',
        action: 'submit',
        relayer_nonce: first!.relayer_nonce,
      });
      expect(
        new Date(second!.signed_at!).getTime() - new Date(first!.broadcast_at!).getTime(),
      ).to.be.at.least(STUCK_AFTER_MS - 50);
      for (const fee of ['max_fee_per_gas', 'max_priority_fee_per_gas'])
        expect(BigInt(second![fee]!) * 8n >= BigInt(first![fee]!) * 9n, fee).to.equal(true);
      const pooled = await base.pooled();
      expect(pooled).to.include(second!.tx_hash);
      expect(pooled).to.not.include(first!.tx_hash);
      await base.mine();
    } finally {
      await base.setAutomine(true);
    }
    const verdict = await h.verdict(paymentId!);
    expect(verdict.type, JSON.stringify(verdict.data)).to.equal('chain.payment.verified');
    const verified = ChainPaymentVerifiedData.parse(verdict.data);
    expect(verified).to.deep.include({ txHash: second!.tx_hash, receivedAmount: '7.010000' });
    // Exactly one transferWithAuthorization used the authorization, and only one attempt has a receipt.
    const used = await base.provider.getLogs({
      address: devnet.chain('BASE').tokens.USDC,
      topics: [AUTHORIZATION_USED, zeroPadValue(payer.address, 32), authorization.nonce],
      fromBlock: 0,
    });
    expect(used.map((l) => l.transactionHash.toLowerCase())).to.deep.equal([second!.tx_hash]);
    const landed: string[] = [];
    for (const a of await attempts(paymentId!)) if (await base.receipt(a.tx_hash)) landed.push(a.tx_hash);
    expect(landed).to.deep.equal([second!.tx_hash]);
    expect(await base.balance('USDC', shop.address)).to.equal(before + units('7.01'));
    const row = await h.db('gasless_payments').where({ payment_id: paymentId! }).first();
    expect(row).to.deep.include({ step: 'handed_over', used_tx_hash: second!.tx_hash });
  });
});
