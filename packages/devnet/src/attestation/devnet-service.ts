import { BLOCKCHAIN_NAMES, type BlockchainName } from '@stablepay/contracts';
import { devnetAccount, type DevnetAccount } from '../accounts.js';
import type { Devnet } from '../types.js';
import type { AttestationServiceOptions } from './options.js';
import { startAttestationService, type AttestationService } from './service.js';

/** Where `npm start` serves the attestation API (var/devnet.json names the URL). */
export const DEVNET_ATTESTATION_PORT = 8790;

/*
 * The forwarding relayer of a chain is its own account (derivation index 2100 + the chain's index in
 * BLOCKCHAIN_NAMES), apart from the platform's relayers, so that their transaction nonces never collide.
 */
const FORWARDER_BASE_INDEX = 2100;
const FORWARDER_GAS = 10n ** 19n;

export const forwarderAccount = (chain: BlockchainName): DevnetAccount =>
  devnetAccount(FORWARDER_BASE_INDEX + BLOCKCHAIN_NAMES.indexOf(chain));

/** The attestation service's options for a running devnet: its chains, attesters and forwarders. */
export const devnetAttestationOptions = (devnet: Devnet): AttestationServiceOptions => {
  // Chains that mine only on transactions would never reach a depth on their own.
  const minesOnTransactionsOnly = devnet.registry().chains.some((chain) => chain.blockTimeMs === undefined);
  return {
    chains: devnet.chains.map((chain) => ({
      name: chain.name,
      chainId: chain.chainId,
      cctpDomain: chain.cctpDomain,
      rpcUrl: chain.rpcUrl,
      messageTransmitter: chain.cctp.messageTransmitter,
      tokenMessenger: chain.cctp.tokenMessenger,
    })),
    attesterKeys: devnet.cctp.attesters.map((attester) => attester.privateKey),
    signatureThreshold: devnet.cctp.signatureThreshold,
    relayerKeys: Object.fromEntries(
      devnet.chains.map((chain) => [chain.name, forwarderAccount(chain.name).privateKey]),
    ),
    mineWhileWaiting: minesOnTransactionsOnly,
  };
};

/** Gives every forwarder gas, then starts the service for the devnet; `overrides` win over the defaults. */
export const startDevnetAttestationService = async (
  devnet: Devnet,
  overrides: Partial<AttestationServiceOptions> = {},
): Promise<AttestationService> => {
  for (const chain of devnet.chains) {
    await devnet.fund(chain.name, forwarderAccount(chain.name).address, { native: FORWARDER_GAS });
  }
  return startAttestationService({ ...devnetAttestationOptions(devnet), ...overrides });
};
