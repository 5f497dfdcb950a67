import { defineService } from '@stablepay/platform';
import { cctpFeeInputRoutes } from './cctp/fee-inputs-routes.js';
import { cctpWorkers } from './cctp/workers.js';
import { loadChainWatcherConfig } from './config.js';
import { gaslessHandlers } from './gasless/handlers.js';
import { gaslessRoutes } from './gasless/routes.js';
import { gaslessWorkers } from './gasless/worker.js';
import { buildWatcherContext } from './context/build-context.js';
import { combineWorkers } from './context/capability-workers.js';
import type { WalletSigner } from './custody/wallet-signer.js';
import { reconciliationRoutes } from './ledger/reconciliation-routes.js';
import { ledgerRoutes } from './ledger/routes.js';
import { ledgerWorkers } from './ledger/workers.js';
import { chainWatcherMigrations } from './migrations/migrations.js';
import { transferHandlers } from './transfers/handlers.js';
import { relayerRoutes } from './transfers/relayer-routes.js';
import { transferWorkers } from './transfers/workers.js';
import { verificationHandlers } from './verification/handlers.js';
import { verificationWorkers } from './verification/workers.js';
import { walletHandlers } from './wallets/handlers.js';
import { walletRoutes } from './wallets/routes.js';

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
    const { config } = kit;
    const { ctx, close } = await buildWatcherContext(kit, options.signer);
    const { workers, wake } = combineWorkers([
      verificationWorkers(ctx, config),
      transferWorkers(ctx, config),
      cctpWorkers(ctx, config),
      ledgerWorkers(ctx, config),
      gaslessWorkers(ctx, config),
    ]);
    return {
      routes: {
        ...walletRoutes(ctx),
        ...ledgerRoutes(ctx),
        ...relayerRoutes(ctx),
        ...cctpFeeInputRoutes(ctx, config),
        ...reconciliationRoutes(ctx),
        ...gaslessRoutes(ctx),
      },
      consumers: {
        ...walletHandlers(ctx),
        ...verificationHandlers(ctx),
        ...transferHandlers(ctx),
        ...gaslessHandlers(ctx),
      },
      workers,
      afterConsume: wake,
      // Runs after the workers stopped: nothing uses the RPC clients or the keys any more.
      close,
      context: ctx,
    };
  },
});
