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
export {
  CCTP_EVENT_SIGNATURES,
  CCTP_EVENT_TOPICS,
  CCTP_SELECTORS,
  FINALITY_THRESHOLD,
  messageTransmitterV2Abi,
  tokenMessengerV2Abi,
  tokenMinterV2Abi,
  type CctpEventName,
} from './cctp/abi.js';
export {
  CCTP_ATTESTER_INDEXES,
  CCTP_FEE_RECIPIENT_INDEX,
  CCTP_SIGNATURE_THRESHOLD,
  cctpAttesterAccounts,
  cctpFeeRecipientAccount,
  recoverAttesters,
  signAttestation,
} from './cctp/attesters.js';
export {
  CCTP_BURN_LIMIT_PER_MESSAGE,
  CCTP_MAX_MESSAGE_BODY_SIZE,
  CCTP_MESSAGE_BODY_VERSION,
  CCTP_MESSAGE_VERSION,
  cctpContractsAt,
  predictCctpContracts,
  type CctpContracts,
} from './cctp/deploy.js';
export {
  CctpMessageError,
  EMPTY_BYTES32,
  HOOK_DATA_OFFSET,
  MESSAGE_BODY_OFFSET,
  addressToBytes32,
  bytes32ToAddress,
  decodeBurnMessageV2,
  decodeMessageV2,
  encodeBurnMessageV2,
  encodeMessageV2,
  fillAttestedFields,
  messageHash,
  type AttestedFields,
  type BurnMessageV2,
  type MessageV2,
} from '@stablepay/platform/cctp/message-v2';
export { FAUCET } from './seed.js';
export { CREATE2_FACTORY, DEVNET_TOKENS, predictTokenAddress, type TokenDefinition } from './tokens.js';
export type {
  Devnet,
  DevnetChain,
  DevnetCctp,
  DevnetChainSpec,
  DevnetLogger,
  FundAmounts,
  StartDevnetOptions,
} from './types.js';
export { RpcProxy, deadUrl, type ProxyMode } from './rpc-proxy.js';
