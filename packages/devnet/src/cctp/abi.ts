import { id, type JsonFragment } from 'ethers';
import { loadArtifact } from '../artifacts.js';

export const messageTransmitterV2Abi = (): JsonFragment[] => loadArtifact('MessageTransmitterV2').abi;
export const tokenMessengerV2Abi = (): JsonFragment[] => loadArtifact('TokenMessengerV2').abi;
export const tokenMinterV2Abi = (): JsonFragment[] => loadArtifact('TokenMinterV2').abi;

/** Event signatures as Circle's V2.1 contracts declare them; topic0 is keccak256 of each. */
export const CCTP_EVENT_SIGNATURES = {
  MessageSent: 'MessageSent(bytes)',
  MessageReceived: 'MessageReceived(address,uint32,bytes32,bytes32,uint32,bytes)',
  DepositForBurn:
    'DepositForBurn(address,uint256,address,bytes32,uint32,bytes32,bytes32,uint256,uint32,bytes)',
  MintAndWithdraw: 'MintAndWithdraw(address,uint256,address,uint256)',
} as const;

export type CctpEventName = keyof typeof CCTP_EVENT_SIGNATURES;

export const CCTP_EVENT_TOPICS: Readonly<Record<CctpEventName, string>> = {
  MessageSent: id(CCTP_EVENT_SIGNATURES.MessageSent),
  MessageReceived: id(CCTP_EVENT_SIGNATURES.MessageReceived),
  DepositForBurn: id(CCTP_EVENT_SIGNATURES.DepositForBurn),
  MintAndWithdraw: id(CCTP_EVENT_SIGNATURES.MintAndWithdraw),
};

/** The selectors wallets and Circle's Bridge Kit call; the devnet contracts answer to the same. */
export const CCTP_SELECTORS = {
  depositForBurn: '0x8e0250ee',
  depositForBurnWithHook: '0x779b432d',
  receiveMessage: '0x57ecfd28',
} as const;

/** finalityThreshold values: fast (confirmed), standard (finalized), and the least a token messenger mints at. */
export const FINALITY_THRESHOLD = { fast: 1000, standard: 2000, tokenMessengerMinimum: 500 } as const;
