import { startDevnet, type Devnet } from '@stablepay/devnet';
import {
  startDevnetAttestationService,
  type AttestationService,
  type AttestationServiceOptions,
} from '@stablepay/devnet/attestation/index';
import { RELAYER_TEST_CHAINS } from './cctp-relayer.js';
import { startHarness, type Harness, type Merchant } from './harness.js';
import { ChainProbe, devnetRelayerKeys } from './transfers.js';

/** Two chains with CCTP, Circle's API as the devnet answers it, the service, a merchant paid on BASE. */
export interface CrossChainGasless {
  devnet: Devnet;
  attestation: AttestationService;
  h: Harness;
  eth: ChainProbe;
  base: ChainProbe;
  shop: Merchant;
  /** the relay's address on ETH, where the customer authorises */
  relayEth: string;
  /** the service's configuration, for another instance on the same database and queue */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The setting of the cross-chain gasless tests: paced fast (polls of 50 ms, back-off capped under a
 * second), with `env` on top and the attestation service's options as given.
 */
export const startCrossChainGasless = async (
  opts: { attestation?: Partial<AttestationServiceOptions>; env?: Record<string, string> } = {},
): Promise<CrossChainGasless> => {
  const devnet = await startDevnet({ basePort: 0, chains: RELAYER_TEST_CHAINS, customers: 0 });
  const attestation = await startDevnetAttestationService(devnet, {
    confirmations: { fast: 2 },
    pollIntervalMs: 100,
    ...opts.attestation,
  });
  const env = {
    RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet),
    CCTP_ATTESTATION_URL: attestation.url,
    CCTP_POLL_MS: '50',
    CCTP_MAX_BACKOFF_MS: '500',
    TRANSFER_POLL_MS: '50',
    TRANSFER_MAX_BACKOFF_MS: '300',
    TRANSFER_LEASE_MS: '2000',
    ...opts.env,
  };
  const h = await startHarness({ registry: devnet.registry(), env });
  const eth = new ChainProbe(devnet.chain('ETH'));
  const base = new ChainProbe(devnet.chain('BASE'));
  const shop = await h.createMerchant('BASE', ['USDC']);
  return {
    devnet,
    attestation,
    h,
    eth,
    base,
    shop,
    relayEth: devnet.relayers.ETH!.address,
    env,
    close: async () => {
      eth.destroy();
      base.destroy();
      await h.close();
      await attestation.stop();
      await devnet.stop();
    },
  };
};
