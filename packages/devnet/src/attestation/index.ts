export {
  startAttestationService,
  type AttestationControl,
  type AttestationService,
  type SeenMessage,
} from './service.js';
export {
  DEVNET_ATTESTATION_PORT,
  devnetAttestationOptions,
  forwarderAccount,
  startDevnetAttestationService,
} from './devnet-service.js';
export {
  CIRCLE_RATE_LIMIT,
  type AttestationChain,
  type AttestationLogger,
  type AttestationServiceOptions,
} from './options.js';
export {
  FAST_FINALITY,
  STANDARD_FINALITY,
  decideFees,
  feeAtRate,
  onchainMinFee,
  toMilliBps,
  type FeeDecision,
  type ForwardFee,
} from './fees.js';
export { FORWARD_MAGIC, encodeForwardHookData, parseForwardHook } from './forward-hook.js';
export { deriveNonce, type ForwardState } from './store.js';
