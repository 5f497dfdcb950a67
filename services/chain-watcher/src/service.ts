import {
  OutboxRelay,
  createHttpApp,
  migrate,
  requireInternalToken,
  startService,
  subscribeEvents,
  type HttpApp,
  type RunningService,
  type ServiceDeps,
  type Worker,
  dependencyChecks,
} from '@stablepay/platform';
import { ChainClients } from './chain/chain-rpc.js';
import type { ChainWatcherConfig } from './config.js';
import { loadOrCreateMasterSeed } from './custody/master-seed.js';
import { RelayerWallets } from './custody/relayer-keys.js';
import { SeedWalletSigner, type WalletSigner } from './custody/wallet-signer.js';
import { chainWatcherMigrations } from './db/migrations.js';
import type { WatcherContext } from './domain/context.js';
import { WalletDirectory } from './domain/wallet-directory.js';
import { relayersRouter } from './http/relayers/router.js';
import { noStore, walletsRouter } from './http/wallets/router.js';
import { chainWatcherHandlers } from './messaging/handlers.js';
import { createChainWatcherMetrics } from './metrics.js';
import { scannerWorker } from './workers/scanner.js';
import { senderWorker } from './workers/sender.js';
import { recoveryWorker, verifierWorker } from './workers/verifier.js';

export const SERVICE_NAME = 'chain-watcher';

export interface ChainWatcherService {
  http: HttpApp;
  workers: Worker[];
  subscribe: () => Promise<void>;
  /** The wiring, for benchmarks and tests that drive the domain directly. */
  context: WatcherContext;
}

export interface BuildChainWatcherOptions {
  config: ChainWatcherConfig;
  deps: ServiceDeps;
  /** A KMS or custody provider in place of the seed-derived keys; the seed is then not touched. */
  signer?: WalletSigner;
}

/**
 * Migrates the database, opens the master seed (a wrong WALLET_KEK stops here), then wires the HTTP
 * app, the workers and the subscriptions.
 */
export async function buildChainWatcherService(opts: BuildChainWatcherOptions): Promise<ChainWatcherService> {
  const { config, deps } = opts;
  const { db, bus, logger } = deps;
  await migrate(db, config.DATABASE_SCHEMA, chainWatcherMigrations);

  const { registry } = config;
  let signer = opts.signer;
  let seedSigner: SeedWalletSigner | undefined;
  let relayers: RelayerWallets;
  if (!signer) {
    const seed = await loadOrCreateMasterSeed(db, config.WALLET_KEK);
    signer = seedSigner = new SeedWalletSigner(seed);
    relayers = new RelayerWallets(registry.chains, config.RELAYER_PRIVATE_KEYS, seed);
    seed.fill(0);
  } else {
    relayers = new RelayerWallets(registry.chains, config.RELAYER_PRIVATE_KEYS, undefined);
  }

  const metrics = createChainWatcherMetrics(deps.metrics);
  const maxUrls = Math.max(1, ...registry.chains.map((c) => c.rpcUrls.length));
  const chains = new ChainClients(registry.chains, { timeoutMs: config.RPC_TIMEOUT_MS, metrics, logger });
  for (const chain of registry.chains) {
    if (!chain.tokens.USDC) logger.warn('chain has no USDC contract configured', { chain: chain.name });
    if (!relayers.addressOn(chain.chainId)) {
      logger.warn('chain has no relayer key: outgoing transfers on it will fail', { chain: chain.name });
    }
  }
  logger.info('relayer accounts (keep them funded with gas)', {
    relayers: relayers.list().map((r) => `${r.blockchain}=${r.address} (${r.source})`),
  });
  const relay = new OutboxRelay({ db, bus, logger, metrics: deps.metrics });
  const ctx: WatcherContext = {
    db,
    registry,
    chains,
    signer,
    wallets: new WalletDirectory(db),
    metrics,
    logger,
    verification: {
      pollMs: config.VERIFY_POLL_MS,
      maxBackoffMs: config.VERIFY_MAX_BACKOFF_MS,
      txNotFoundAfterMs: config.TX_NOT_FOUND_AFTER_MS,
      // Long enough for the three reads of one check to try every URL up to its timeout.
      leaseMs: 30_000 + 3 * maxUrls * config.RPC_TIMEOUT_MS,
    },
    relayers,
    transfers: {
      pollMs: config.TRANSFER_POLL_MS,
      maxBackoffMs: config.TRANSFER_MAX_BACKOFF_MS,
      // Long enough for every call of one step (about ten) to try each URL up to its timeout.
      leaseMs: config.TRANSFER_LEASE_MS ?? 30_000 + 10 * maxUrls * config.RPC_TIMEOUT_MS,
      stuckAfterMs: config.TRANSFER_STUCK_AFTER_MS,
      authorizationTtlMs: config.TRANSFER_AUTHORIZATION_TTL_MS,
      chainUnavailableAfterMs: config.TRANSFER_CHAIN_UNAVAILABLE_AFTER_MS,
      logWindowBlocks: config.SCAN_MAX_BLOCKS,
      crashPoint: config.TRANSFER_CRASH_POINT,
    },
    tokenNames: new Map(),
    eventsCommitted: () => relay.wake(),
  };

  const verifier = verifierWorker(ctx, {
    batchSize: config.VERIFY_BATCH_SIZE,
    concurrency: config.VERIFY_CONCURRENCY,
  });
  const sender = senderWorker(ctx, {
    batchSize: config.TRANSFER_BATCH_SIZE,
    concurrency: config.TRANSFER_CONCURRENCY,
  });

  const http = createHttpApp({
    service: SERVICE_NAME,
    logger,
    metrics: deps.metrics,
    // RPC endpoints are not a readiness condition: an outage must not take the wallet API and the
    // consumers out of rotation; verification simply waits.
    readiness: dependencyChecks(deps),
  });
  http.app.use('/wallets/api/balance', noStore);
  http.app.use(requireInternalToken(config.INTERNAL_TOKEN_SECRET));
  http.app.use(walletsRouter(ctx));
  http.app.use(relayersRouter(ctx));

  const workers: Worker[] = [
    verifier,
    sender,
    recoveryWorker(ctx, { recoveryAfterMs: config.RECOVERY_AFTER_MS, onRecovered: () => verifier.wake() }),
    scannerWorker(ctx, { intervalMs: config.SCAN_INTERVAL_MS, maxBlocks: config.SCAN_MAX_BLOCKS }),
    relay,
    {
      // Last: nothing uses the RPC clients or the keys once the workers above have stopped.
      name: 'chain-clients',
      start: () => undefined,
      stop: async () => {
        chains.destroy();
        seedSigner?.wipe();
        relayers.forget();
      },
    },
  ];
  const subscribe = () =>
    subscribeEvents({
      bus,
      db,
      consumer: SERVICE_NAME,
      handlers: chainWatcherHandlers(ctx),
      logger,
      metrics: deps.metrics,
      afterCommit: () => {
        relay.wake();
        verifier.wake();
        sender.wake();
      },
    });
  return { http, workers, subscribe, context: ctx };
}

export async function startChainWatcherService(opts: {
  config: ChainWatcherConfig;
  deps: ServiceDeps;
  port?: number;
  host?: string;
  /** false when a stack shares the bus and the database with other services */
  ownsConnections?: boolean;
  signer?: WalletSigner;
}): Promise<RunningService> {
  const { config, deps } = opts;
  const service = await buildChainWatcherService({ config, deps, signer: opts.signer });
  return startService({
    name: SERVICE_NAME,
    deps,
    http: service.http,
    port: opts.port ?? config.PORT,
    host: opts.host ?? config.HOST,
    workers: service.workers,
    subscribe: service.subscribe,
    ownsConnections: opts.ownsConnections,
    graceMs: config.SHUTDOWN_GRACE_MS,
  });
}
