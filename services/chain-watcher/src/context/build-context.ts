import type { BlockchainName } from '@stablepay/contracts';
import type { Logger, ServiceKit } from '@stablepay/platform';
import { AttestationApi } from '../chain/attestation-api.js';
import { ChainClients } from '../chain/chain-rpc.js';
import type { ChainWatcherConfig } from '../config.js';
import { openCustody } from '../custody/open-custody.js';
import type { RelayerWallets } from '../custody/relayer-keys.js';
import type { WalletSigner } from '../custody/wallet-signer.js';
import { watcherRecording, type WatcherContext } from './watcher-context.js';
import { WalletDirectory } from '../wallets/wallet-directory.js';
import { chainStateGauges, createChainWatcherMetrics, type ChainWatcherMetrics } from '../metrics.js';

/**
 * The timing rules of each capability, from configuration. Leases of work rows are short and renewed
 * while a step runs, however many RPC calls it makes (see leasedBatchWorker): a slow RPC never lets a
 * second worker in, and a replica that dies leaves its rows to another within a lease.
 */
const settingsOf = (
  config: ChainWatcherConfig,
  metrics: ChainWatcherMetrics,
  logger: Logger,
): Pick<WatcherContext, 'verification' | 'transfers' | 'cctp' | 'gasless'> => {
  return {
    verification: {
      pollMs: config.VERIFY_POLL_MS,
      maxBackoffMs: config.VERIFY_MAX_BACKOFF_MS,
      txNotFoundAfterMs: config.TX_NOT_FOUND_AFTER_MS,
      leaseMs: config.VERIFY_LEASE_MS,
    },
    transfers: {
      pollMs: config.TRANSFER_POLL_MS,
      maxBackoffMs: config.TRANSFER_MAX_BACKOFF_MS,
      leaseMs: config.TRANSFER_LEASE_MS,
      stuckAfterMs: config.TRANSFER_STUCK_AFTER_MS,
      authorizationTtlMs: config.TRANSFER_AUTHORIZATION_TTL_MS,
      chainUnavailableAfterMs: config.TRANSFER_CHAIN_UNAVAILABLE_AFTER_MS,
      logWindowBlocks: config.SCAN_MAX_BLOCKS,
      crashPoint: config.TRANSFER_CRASH_POINT,
    },
    cctp: {
      pollMs: config.CCTP_POLL_MS,
      maxBackoffMs: config.CCTP_MAX_BACKOFF_MS,
      leaseMs: config.CCTP_LEASE_MS,
      mintTimeoutMs: config.CCTP_MINT_TIMEOUT_MS,
      attestationWaitMs: config.CCTP_ATTESTATION_WAIT_MS,
      crashPoint: config.CCTP_CRASH_POINT,
      attestation: config.CCTP_ATTESTATION_URL
        ? new AttestationApi({
            baseUrl: config.CCTP_ATTESTATION_URL,
            timeoutMs: config.CCTP_ATTESTATION_TIMEOUT_MS,
            metrics,
            logger,
          })
        : undefined,
    },
    gasless: {
      // A submission is a payment waiting: it moves at the pace of the relayer's transfers.
      pollMs: config.TRANSFER_POLL_MS,
      maxBackoffMs: config.TRANSFER_MAX_BACKOFF_MS,
      leaseMs: config.GASLESS_LEASE_MS,
      dailyGasBudgetWei: (chainName) =>
        BigInt(
          config.GASLESS_DAILY_GAS_BUDGET_WEI_BY_CHAIN?.[chainName as BlockchainName] ??
            config.GASLESS_DAILY_GAS_BUDGET_WEI,
        ),
      gasMargin: config.GASLESS_RELAY_GAS_MARGIN,
      lowGasRetryAfterS: config.GASLESS_LOW_GAS_RETRY_AFTER_S,
      crashPoint: config.GASLESS_CRASH_POINT,
    },
  };
};

/** What an operator must fix before money moves: a chain without USDC or without a relayer key. */
const warnOfGaps = (config: ChainWatcherConfig, relayers: RelayerWallets, logger: Logger): void => {
  for (const chain of config.registry.chains) {
    if (!chain.tokens.USDC) logger.warn('chain has no USDC contract configured', { chain: chain.name });
    if (!relayers.addressOn(chain.chainId)) {
      logger.warn('chain has no relayer key: outgoing transfers on it will fail', { chain: chain.name });
    }
  }
  logger.info('relayer accounts (keep them funded with gas)', {
    relayers: relayers.list().map((r) => `${r.blockchain}=${r.address} (${r.source})`),
  });
};

/**
 * Everything the domain works with: the keys, one RPC client per chain of the registry, and the
 * timing rules from configuration. `close` releases the clients and forgets the keys; nothing may
 * use the context after it.
 */
export const buildWatcherContext = async (
  { config, deps, eventsCommitted }: ServiceKit<ChainWatcherConfig>,
  signer: WalletSigner | undefined,
): Promise<{ ctx: WatcherContext; close: () => void }> => {
  const { db, logger } = deps;
  const { registry } = config;
  const custody = await openCustody({
    db,
    kek: config.WALLET_KEK,
    previousKek: config.WALLET_KEK_PREVIOUS,
    logger,
    chains: registry.chains,
    relayerKeys: config.RELAYER_PRIVATE_KEYS,
    signer,
  });
  const metrics = createChainWatcherMetrics(deps.metrics, { db, registry });
  const chains = new ChainClients(registry.chains, { timeoutMs: config.RPC_TIMEOUT_MS, metrics, logger });
  chainStateGauges(deps.metrics, chains, custody.relayers, config.CHAIN_METRICS_CACHE_MS);
  warnOfGaps(config, custody.relayers, logger);
  const ctx: WatcherContext = {
    db,
    registry,
    chains,
    signer: custody.signer,
    relayers: custody.relayers,
    wallets: new WalletDirectory(db),
    metrics,
    logger,
    ...settingsOf(config, metrics, logger),
    tokenNames: new Map(),
    tokenSlots: new Map(),
    ...watcherRecording(eventsCommitted),
  };
  const close = () => {
    chains.destroy();
    custody.forget();
  };
  return { ctx, close };
};
