import type { DevnetCctp } from '../types.js';
import {
  CCTP_SIGNATURE_THRESHOLD,
  cctpAttesterAccounts,
  cctpFeeRecipientAccount,
  signAttestation,
} from './attesters.js';
import {
  CCTP_BURN_LIMIT_PER_MESSAGE,
  CCTP_MAX_MESSAGE_BODY_SIZE,
  CCTP_MESSAGE_BODY_VERSION,
  CCTP_MESSAGE_VERSION,
} from './deploy.js';
import {
  decodeBurnMessageV2,
  decodeMessageV2,
  encodeBurnMessageV2,
  encodeMessageV2,
  fillAttestedFields,
} from '@stablepay/platform/cctp/message-v2';

/** The devnet's CCTP settings and attester, as `devnet.cctp` offers them. */
export const devnetCctp = (): DevnetCctp => {
  const attesters = cctpAttesterAccounts();
  return {
    messageVersion: CCTP_MESSAGE_VERSION,
    messageBodyVersion: CCTP_MESSAGE_BODY_VERSION,
    attesters,
    signatureThreshold: CCTP_SIGNATURE_THRESHOLD,
    feeRecipient: cctpFeeRecipientAccount().address,
    maxMessageBodySize: CCTP_MAX_MESSAGE_BODY_SIZE,
    burnLimitPerMessage: CCTP_BURN_LIMIT_PER_MESSAGE,
    attest: (message) => signAttestation(message, attesters.slice(0, CCTP_SIGNATURE_THRESHOLD)),
    encodeMessage: encodeMessageV2,
    decodeMessage: decodeMessageV2,
    encodeBurnMessage: encodeBurnMessageV2,
    decodeBurnMessage: decodeBurnMessageV2,
    fillAttestedFields,
  };
};
