import { expect } from 'chai';
import type { Devnet } from '@stablepay/devnet';
import { STANDARD_FINALITY } from '@stablepay/devnet/attestation/index';
import { CCTP_TOPICS } from '../../src/chain/cctp.js';
import { units } from '../support/chain.js';
import { eventsAbout, freshWallet, publishAuthorization, signAuthorization } from '../support/gasless.js';
import { startCrossChainGasless, type CrossChainGasless } from '../support/gasless-cross-chain.js';
import type { Harness, Merchant } from '../support/harness.js';
import type { ChainProbe } from '../support/transfers.js';

/**
 * A fast transfer's attested message expires on the merchant's chain before the relay can mint it
 * (here: one block of validity, so every fast signature is already stale when the relay sees it).
 * The relay asks the attestation API to sign it again (POST /v2/reattest/{nonce}), which signs it as
 * standard once the burn is final, and mints that: the payment completes, minted once.
 */
describe('cross-chain gasless payments whose fast attestation expired are re-attested and minted (anvil + attestation API + PostgreSQL + RabbitMQ)', function () {
  this.timeout(90_000);
  let x: CrossChainGasless;
  let devnet: Devnet;
  let h: Harness;
  let base: ChainProbe;
  let shop: Merchant;

  before(async () => {
    x = await startCrossChainGasless({
      attestation: { confirmations: { fast: 2, standard: 6 }, fastExpirationBlocks: 1 },
    });
    ({ devnet, h, base, shop } = x);
  });
  after(async () => x?.close());

  it('asks for a new signature of the expired message and mints the re-attested one, once', async () => {
    const payer = freshWallet();
    await devnet.fund('ETH', payer.address, { USDC: units('20') });
    const before = await base.balance('USDC', shop.address);
    const authorization = await signAuthorization(x.eth, {
      signer: payer,
      to: devnet.relayers.ETH!.address,
      value: units('10.02'),
    });
    // Blocks go on being made on both chains: the burn becomes final, the mint deep enough.
    const blocks = setInterval(() => {
      void devnet.mine('ETH', 1).catch(() => undefined);
      void devnet.mine('BASE', 1).catch(() => undefined);
    }, 250);
    let paymentId: string;
    try {
      paymentId = await publishAuthorization(h, shop, authorization, {
        amount: '10.000000',
        networkFee: '0.010000',
        cctpFee: '0.010000',
        source: { chainId: devnet.chain('ETH').chainId, blockchain: 'ETH' },
      });
      const verdict = await h.verdict(paymentId, 75_000);
      expect(verdict.type, JSON.stringify(verdict.data)).to.equal('chain.payment.verified');
    } finally {
      clearInterval(blocks);
    }
    const mints = await h.db('gasless_relay_transactions').where({ payment_id: paymentId!, action: 'mint' });
    const landed = [];
    for (const m of mints) {
      const receipt = await base.receipt(m.tx_hash);
      if (receipt?.status === '0x1') landed.push(receipt);
    }
    expect(landed).to.have.length(1);
    // What was received is the re-attested message: signed as standard, no expiry.
    const received = (landed[0]!.logs as unknown as Array<{ topics: string[] }>).find(
      (l) => l.topics[0] === CCTP_TOPICS.messageReceived,
    );
    expect(BigInt(received!.topics[3]!)).to.equal(BigInt(STANDARD_FINALITY));
    expect((await base.balance('USDC', shop.address)) - before >= units('10')).to.equal(true);
    const verdicts = eventsAbout(h, paymentId!).filter((e) => e.type === 'chain.payment.verified');
    expect(verdicts).to.have.length(1);
  });
});
