import { expect } from 'chai';
import {
  Interface,
  MaxUint256,
  ZeroHash,
  hexlify,
  randomBytes,
  type JsonRpcProvider,
  type TransactionReceipt,
  type Wallet,
} from 'ethers';
import {
  addressToBytes32,
  cctpContractsAt,
  fiatTokenAbi,
  messageTransmitterV2Abi,
  tokenMessengerV2Abi,
  tokenMinterV2Abi,
  type DevnetChain,
} from '../src/index.js';
import { tokenAt } from './helpers.js';

const interfaces = (): Interface[] =>
  [fiatTokenAbi(), messageTransmitterV2Abi(), tokenMessengerV2Abi(), tokenMinterV2Abi()].map(
    (abi) => new Interface(abi),
  );

/** Each log of a receipt as "Event@contract", the contract named by its role on the chain. */
export const logTrail = (receipt: TransactionReceipt, chain: DevnetChain): string[] => {
  const names = new Map<string, string>([
    [chain.tokens.USDC.toLowerCase(), 'USDC'],
    [chain.cctp.messageTransmitter.toLowerCase(), 'transmitter'],
    [chain.cctp.tokenMessenger.toLowerCase(), 'messenger'],
    [chain.cctp.tokenMinter.toLowerCase(), 'minter'],
  ]);
  const parsers = interfaces();
  return receipt.logs.map((log) => {
    const parsed = parsers.map((each) => each.parseLog(log)).find(Boolean);
    return `${parsed?.name ?? log.topics[0]}@${names.get(log.address.toLowerCase()) ?? log.address}`;
  });
};

/** The decoded arguments of the receipt's first log of this event. */
export const eventArgs = (receipt: TransactionReceipt, abi: Interface, name: string) => {
  for (const log of receipt.logs) {
    const parsed = abi.parseLog(log);
    if (parsed?.name === name) return parsed.args;
  }
  return expect.fail(`no ${name} log in ${receipt.hash}`);
};

export const randomNonce = (): string => hexlify(randomBytes(32));

/** The chain's CCTP contracts, connected to a provider or a wallet. */
export const cctpOf = (chain: DevnetChain, runner: JsonRpcProvider | Wallet) =>
  cctpContractsAt(chain.cctp, runner);

export interface BurnRequest {
  amount: bigint;
  destination: DevnetChain;
  recipient: string;
  maxFee?: bigint;
  minFinalityThreshold?: number;
  destinationCaller?: string;
  hookData?: string;
}

/** Approves the source chain's TokenMessengerV2 and burns as a wallet (Bridge Kit) would. */
export const burn = async (
  source: DevnetChain,
  wallet: Wallet,
  request: BurnRequest,
): Promise<TransactionReceipt> => {
  const token = tokenAt(source.tokens.USDC, wallet);
  await (await token.getFunction('approve')(source.cctp.tokenMessenger, MaxUint256)).wait();
  const messenger = cctpOf(source, wallet).tokenMessenger;
  const args = [
    request.amount,
    request.destination.cctpDomain,
    addressToBytes32(request.recipient),
    source.tokens.USDC,
    request.destinationCaller ? addressToBytes32(request.destinationCaller) : ZeroHash,
    request.maxFee ?? 0n,
    request.minFinalityThreshold ?? 2000,
  ];
  const tx = request.hookData
    ? await messenger.getFunction('depositForBurnWithHook')(...args, request.hookData)
    : await messenger.getFunction('depositForBurn')(...args);
  return (await tx.wait()) as TransactionReceipt;
};

/** The bytes MessageSent carried in a burn's receipt. */
export const emittedMessage = (receipt: TransactionReceipt): string =>
  eventArgs(receipt, new Interface(messageTransmitterV2Abi()), 'MessageSent').message as string;

export const receive = async (
  destination: DevnetChain,
  wallet: Wallet,
  message: string,
  attestation: string,
): Promise<TransactionReceipt> => {
  const transmitter = cctpOf(destination, wallet).messageTransmitter;
  const tx = await transmitter.getFunction('receiveMessage')(message, attestation);
  return (await tx.wait()) as TransactionReceipt;
};

export const balanceOf = async (
  chain: DevnetChain,
  provider: JsonRpcProvider,
  address: string,
): Promise<bigint> =>
  (await tokenAt(chain.tokens.USDC, provider).getFunction('balanceOf')(address)) as bigint;
