import { SigningKey, computeAddress, concat, dataLength, dataSlice, keccak256, recoverAddress } from 'ethers';
import { devnetAccount, type DevnetAccount } from '../accounts.js';

/*
 * Devnet accounts the CCTP contracts trust (derivation indexes of the devnet mnemonic, in the 2000+
 * range kept for devnet roles):
 *   2000, 2001   attesters enabled on every chain's MessageTransmitterV2; both sign (threshold 2)
 *   2002         fee recipient of every chain's TokenMessengerV2 (receives feeExecuted at mint)
 * Every other CCTP role (owner, pauser, attester manager, denylister, token controller, min fee
 * controller) is the deployer's. Public keys, devnet only, as every devnet key.
 */
export const CCTP_ATTESTER_INDEXES = [2000, 2001] as const;
export const CCTP_FEE_RECIPIENT_INDEX = 2002;
export const CCTP_SIGNATURE_THRESHOLD = 2;

export const cctpAttesterAccounts = (): DevnetAccount[] => CCTP_ATTESTER_INDEXES.map(devnetAccount);

export const cctpFeeRecipientAccount = (): DevnetAccount => devnetAccount(CCTP_FEE_RECIPIENT_INDEX);

const byAddress = (a: { address: string }, b: { address: string }): number => {
  const left = BigInt(a.address);
  const right = BigInt(b.address);
  return left < right ? -1 : left > right ? 1 : 0;
};

/**
 * The attestation MessageTransmitterV2 accepts from these signers: each signs the raw keccak256 of the
 * message (no EIP-191 prefix), 65 bytes r‖s‖v with v 27 or 28, concatenated in strictly increasing order
 * of signer address. Pass exactly `signatureThreshold` signers for an attestation the contract accepts.
 */
export const signAttestation = (message: string, signers: readonly { privateKey: string }[]): string => {
  const digest = keccak256(message);
  const signatures = signers.map(({ privateKey }) => {
    const key = new SigningKey(privateKey);
    return { address: computeAddress(key.publicKey), signature: key.sign(digest).serialized };
  });
  return concat(signatures.sort(byAddress).map((each) => each.signature));
};

/** The signers of an attestation in its order, e.g. to check what an attestation service served. */
export const recoverAttesters = (message: string, attestation: string): string[] => {
  const length = dataLength(attestation);
  if (length === 0 || length % 65 !== 0)
    throw new Error('An attestation is a whole number of 65-byte signatures');
  const digest = keccak256(message);
  const signers: string[] = [];
  for (let offset = 0; offset < length; offset += 65)
    signers.push(recoverAddress(digest, dataSlice(attestation, offset, offset + 65)));
  return signers;
};
