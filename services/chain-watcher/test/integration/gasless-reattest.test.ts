import { expect } from 'chai';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { startDevnetAttestationService, type AttestationService } from '@stablepay/devnet/attestation/index';
import { CCTP_TOPICS } from '../../src/chain/cctp.js';
import { units } from '../support/chain.js';
import { RELAYER_TEST_CHAINS } from '../support/cctp-relayer.js';
import { eventsAbout, freshWallet, publishAuthorization, signAuthorization } from '../support/gasless.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import { ChainProbe, devnetRelayerKeys } from '../support/transfers.js';

/** Circle's finality threshold of a standard (finalized) attestation. */
const STANDARD_FINALITY = 2000n;

/**
 * A fast transfer's attested message expires on the merchant's chain before the relay can mint it
 * (here: one block of validity, so every fast signature is already stale when the relay sees it).
 * The relay asks the attestation API to sign it again (POST /v2/reattest/{nonce}), which signs it as
 * standard once the burn is final, and mints that: the payment completes, minted once.
 */
describe('cross-chain gasless payments whose fast attestation expired are re-attested and minted (anvil + attestation API + PostgreSQL + RabbitMQ)', function () {
  this.timeout(90_000);
  let devnet: Devnet;
  let attestation: AttestationService;
  let h: Harness;
  let eth: ChainProbe;
  let base: ChainProbe;
  let shop: Merchant;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, chains: RELAYER_TEST_CHAINS, customers: 0 });
    attestation = await startDevnetAttestationService(devnet, {
      confirmations: { fast: 2, standard: 6 },
      fastExpirationBlocks: 1,
      pollIntervalMs: 100,
    });
    h = await startHarness({
      registry: devnet.registry(),
      env: {
        RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet),
        CCTP_ATTESTATION_URL: attestation.url,
        CCTP_POLL_MS: '50',
        CCTP_MAX_BACKOFF_MS: '500',
        TRANSFER_POLL_MS: '50',
        TRANSFER_MAX_BACKOFF_MS: '300',
        TRANSFER_LEASE_MS: '2000',
      },
    });
    eth = new ChainProbe(devnet.chain('ETH'));
    base = new ChainProbe(devnet.chain('BASE'));
    shop = await h.createMerchant('BASE', ['USDC']);
  });
  after(async () => {
    eth?.destroy();
    base?.destroy();
    await h?.close();
    await attestation?.stop();
    await devnet?.stop();
  });

  it('asks for a new signature of the expired message and mints the re-attested one, once', async () => {
    const payer = freshWallet();
    await devnet.fund('ETH', payer.address, { USDC: units('20') });
    const before = await base.balance('USDC', shop.address);
    const authorization = await signAuthorization(eth, {
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
    expect(BigInt(received!.topics[3]!)).to.equal(STANDARD_FINALITY);
    expect((await base.balance('USDC', shop.address)) - before >= units('10')).to.equal(true);
    const verdicts = eventsAbout(h, paymentId!).filter((e) => e.type === 'chain.payment.verified');
    expect(verdicts).to.have.length(1);
  });
});
