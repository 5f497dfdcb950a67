import { Interface } from 'ethers';

/** The CCTP v2 events and calls the attestation service and the forwarding relayer use (Circle's signatures). */
export const messageTransmitterInterface = new Interface([
  'event MessageSent(bytes message)',
  'event MessageReceived(address indexed caller, uint32 sourceDomain, bytes32 indexed nonce, bytes32 sender, uint32 indexed finalityThresholdExecuted, bytes messageBody)',
  'function receiveMessage(bytes message, bytes attestation) returns (bool)',
  'function usedNonces(bytes32 nonce) view returns (uint256)',
]);

export const tokenMessengerInterface = new Interface([
  'event DepositForBurn(address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller, uint256 maxFee, uint32 indexed minFinalityThreshold, bytes hookData)',
  'function minFee() view returns (uint256)',
  'function getMinFeeAmount(uint256 amount) view returns (uint256)',
]);

const topic = (iface: Interface, name: string): string => {
  const event = iface.getEvent(name);
  if (!event) throw new Error(`No event ${name}`);
  return event.topicHash;
};

export const MESSAGE_SENT_TOPIC = topic(messageTransmitterInterface, 'MessageSent');
export const MESSAGE_RECEIVED_TOPIC = topic(messageTransmitterInterface, 'MessageReceived');
export const DEPOSIT_FOR_BURN_TOPIC = topic(tokenMessengerInterface, 'DepositForBurn');
