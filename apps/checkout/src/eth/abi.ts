/**
 * The few ABI encodings the page needs, by hand: every argument here is a static 32-byte word
 * except receiveMessage's two `bytes`, so a general ABI library (and its weight in the bundle) is not
 * worth it.
 */

export type Hex = `0x${string}`;

const strip = (hex: string): string => (hex.startsWith('0x') ? hex.slice(2) : hex);

export const word = (value: bigint | number): string => {
  const n = BigInt(value);
  if (n < 0n) throw new RangeError('negative ABI word');
  return n.toString(16).padStart(64, '0');
};

export const addressWord = (address: string): string => strip(address).toLowerCase().padStart(64, '0');

const bytesTail = (data: string): string => {
  const body = strip(data);
  const padded = body.padEnd(Math.ceil(body.length / 64) * 64, '0');
  return word(body.length / 2) + padded;
};

export const SELECTORS = {
  transfer: 'a9059cbb',
  balanceOf: '70a08231',
  approve: '095ea7b3',
  allowance: 'dd62ed3e',
  /** depositForBurn(uint256,uint32,bytes32,address,bytes32,uint256,uint32) of TokenMessengerV2 */
  depositForBurn: '8e0250ee',
  /** receiveMessage(bytes,bytes) of MessageTransmitterV2 */
  receiveMessage: '57ecfd28',
} as const;

/** keccak256("Transfer(address,address,uint256)") */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** keccak256("AuthorizationUsed(address,bytes32)"): FiatToken's log of a used EIP-3009 authorization. */
export const AUTHORIZATION_USED_TOPIC = '0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5';

export const encodeTransfer = (to: string, amount: bigint): Hex =>
  `0x${SELECTORS.transfer}${addressWord(to)}${word(amount)}`;

export const encodeBalanceOf = (owner: string): Hex => `0x${SELECTORS.balanceOf}${addressWord(owner)}`;

export const encodeApprove = (spender: string, amount: bigint): Hex =>
  `0x${SELECTORS.approve}${addressWord(spender)}${word(amount)}`;

export const encodeAllowance = (owner: string, spender: string): Hex =>
  `0x${SELECTORS.allowance}${addressWord(owner)}${addressWord(spender)}`;

export interface DepositForBurnArgs {
  amount: bigint;
  destinationDomain: number;
  mintRecipient: string;
  burnToken: string;
  /** zero: anyone may deliver the message on the destination chain */
  destinationCaller?: string;
  maxFee: bigint;
  minFinalityThreshold: number;
}

export const encodeDepositForBurn = (a: DepositForBurnArgs): Hex =>
  `0x${SELECTORS.depositForBurn}${word(a.amount)}${word(a.destinationDomain)}${addressWord(a.mintRecipient)}${addressWord(a.burnToken)}${addressWord(a.destinationCaller ?? '0x0')}${word(a.maxFee)}${word(a.minFinalityThreshold)}`;

export const encodeReceiveMessage = (message: string, attestation: string): Hex => {
  const first = bytesTail(message);
  // Two head words (offsets), then each bytes value as length + padded data.
  return `0x${SELECTORS.receiveMessage}${word(64)}${word(64 + first.length / 2)}${first}${bytesTail(attestation)}`;
};

export const decodeUint = (hex: string): bigint => (strip(hex) === '' ? 0n : BigInt(`0x${strip(hex)}`));

export const topicToAddress = (topic: string): string => `0x${strip(topic).slice(24)}`.toLowerCase();
