export {
  chainWatcherConfigSchema,
  loadChainWatcherConfig,
  parseWalletKek,
  type ChainWatcherConfig,
  type ChainWatcherEnv,
  type TransferCrashPoint,
} from './config.js';
export { chainWatcherService, type ChainWatcherOptions } from './service.js';
export { chainWatcherMigrations } from './migrations/migrations.js';
export { SeedWalletSigner, type WalletSigner } from './custody/wallet-signer.js';
export { RelayerKeySet, RelayerWallets, parseRelayerKeys, type RelayerInfo } from './custody/relayer-keys.js';
export { authorizationNonce } from './chain/fiat-token.js';
export { WalletKeyError } from './custody/seed-crypto.js';
export { ChainClients, ChainRpc } from './chain/chain-rpc.js';
export { RpcUnavailableError, type RpcErrorKind } from './chain/rpc-errors.js';
export type { WatcherContext } from './context/watcher-context.js';
export type { ChainWatcherMetrics } from './metrics.js';
