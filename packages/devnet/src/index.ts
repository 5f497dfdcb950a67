export {
  DEVNET_MNEMONIC,
  customerAccount,
  deployerAccount,
  devnetAccount,
  relayerAccount,
  type DevnetAccount,
} from './accounts.js';
export { anvilBinary, freePort, startAnvil, type AnvilOptions, type AnvilProcess } from './anvil.js';
export { fiatTokenAbi, loadArtifact, type ContractArtifact } from './artifacts.js';
export { DEFAULT_CUSTOMERS, DEFAULT_DEVNET_CHAINS, startDevnet } from './devnet.js';
export { FAUCET } from './seed.js';
export { CREATE2_FACTORY, DEVNET_TOKENS, predictTokenAddress, type TokenDefinition } from './tokens.js';
export type {
  Devnet,
  DevnetChain,
  DevnetChainSpec,
  DevnetLogger,
  FundAmounts,
  StartDevnetOptions,
} from './types.js';
export { RpcProxy, deadUrl, type ProxyMode } from './rpc-proxy.js';
