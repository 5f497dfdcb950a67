import { defineService } from '@stablepay/platform';
import { loadChainWatcherConfig } from './config.js';
import type { WalletSigner } from './custody/wallet-signer.js';
import { chainWatcherMigrations } from './db/migrations.js';
import { cctpFeeInputRoutes } from './http/cctp/fee-inputs-routes.js';
import { relayerRoutes } from './http/relayers/routes.js';
import { ledgerRoutes } from './http/ledger/routes.js';
import { walletRoutes } from './http/wallets/routes.js';
import { reconciliationRoutes } from './ledger/reconciliation-routes.js';
import { chainWatcherConsumers } from './messaging/handlers.js';
import { buildWatcherContext } from './watcher-context.js';
import { watcherWorkers } from './workers/watcher-workers.js';

export interface ChainWatcherOptions {
  /** A KMS or custody provider in place of the seed-derived keys; the seed is then not touched. */
  signer?: WalletSigner;
}

/**
 * Custody of merchant wallets, verification of incoming payments and sending of outgoing transfers.
 * RPC endpoints are not a readiness condition: an outage must not take the wallet API and the
 * consumers out of rotation; verification simply waits.
 */
export const chainWatcherService = defineService({
  name: 'chain-watcher',
  migrations: chainWatcherMigrations,
  loadConfig: loadChainWatcherConfig,
  async build(kit, options: ChainWatcherOptions) {
    const { ctx, close } = await buildWatcherContext(kit, options.signer);
    const { workers, wake } = watcherWorkers(ctx, kit.config);
    return {
      routes: {
        ...walletRoutes(ctx),
        ...ledgerRoutes(ctx),
        ...relayerRoutes(ctx),
        ...cctpFeeInputRoutes(ctx, kit.config),
        ...reconciliationRoutes(ctx),
      },
      consumers: chainWatcherConsumers(ctx),
      workers,
      afterConsume: wake,
      // Runs after the workers stopped: nothing uses the RPC clients or the keys any more.
      close,
      context: ctx,
    };
  },
});
