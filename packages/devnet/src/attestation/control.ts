import type { PendingShape } from './api-json.js';
import type { ServiceModes } from './http.js';
import type { ForwardState, MessageStore, ObservedMessage } from './store.js';

/** A message as the service sees it, for tests. */
export type SeenMessage = Pick<
  ObservedMessage,
  | 'sourceChain'
  | 'sourceDomain'
  | 'destinationDomain'
  | 'transactionHash'
  | 'logIndex'
  | 'blockNumber'
  | 'nonce'
> & {
  status: 'pending_confirmations' | 'complete';
  finalityThresholdExecuted: number;
  feeExecuted: bigint;
  delayReason: 'insufficient_fee' | null;
  expirationBlock: bigint | null;
  forwardState: ForwardState | null;
  forwardTxHash: string | null;
  forwardFailure: string | null;
};

/** Switches for tests. Every mode applies to every path until it is switched off. */
export interface AttestationControl {
  /** Answer every request this many milliseconds late (0: at once). */
  setDelay(ms: number): void;
  /** Answer every request with this 5xx status; false: answer normally. */
  setFailure(status: number | false): void;
  /** How messages not signed yet are written: Circle's placeholders ("0x", "PENDING") or nulls. */
  setPendingShape(shape: PendingShape): void;
  /** Refuse every request with 429 while on. */
  setRateLimited(on: boolean): void;
  /** Lift a block that Circle's rate limit (when configured) put in place. */
  clearRateLimit(): void;
  seen(): SeenMessage[];
  requestCount(): number;
  /** Scans every chain, attests and forwards now; resolves when done. */
  sync(): Promise<void>;
}

const seenMessage = (record: ObservedMessage): SeenMessage => ({
  sourceChain: record.sourceChain,
  sourceDomain: record.sourceDomain,
  destinationDomain: record.destinationDomain,
  transactionHash: record.transactionHash,
  logIndex: record.logIndex,
  blockNumber: record.blockNumber,
  nonce: record.nonce,
  status: record.attested ? 'complete' : 'pending_confirmations',
  finalityThresholdExecuted:
    record.attested?.finalityThresholdExecuted ?? record.decision.finalityThresholdExecuted,
  feeExecuted: record.decision.feeExecuted,
  delayReason: record.decision.delayReason,
  expirationBlock: record.attested?.expirationBlock ?? null,
  forwardState: record.forward?.state ?? null,
  forwardTxHash: record.forward?.txHash ?? null,
  forwardFailure: record.forward?.reason ?? null,
});

export interface ControlParts {
  modes: ServiceModes;
  store: MessageStore;
  setPendingShape(shape: PendingShape): void;
  sync(): Promise<void>;
}

export const createControl = ({ modes, store, setPendingShape, sync }: ControlParts): AttestationControl => ({
  setDelay: (ms) => {
    if (!Number.isInteger(ms) || ms < 0) throw new RangeError('delay must be a non-negative integer of ms');
    modes.delayMs = ms;
  },
  setFailure: (status) => {
    if (status !== false && !(Number.isInteger(status) && status >= 500 && status <= 599)) {
      throw new RangeError('failure status must be a 5xx code');
    }
    modes.failStatus = status === false ? null : status;
  },
  setPendingShape,
  setRateLimited: (on) => {
    modes.forceRateLimit = on;
  },
  clearRateLimit: () => modes.clearRateLimit(),
  seen: () =>
    store
      .all()
      .sort(
        (a, b) => a.sourceDomain - b.sourceDomain || a.blockNumber - b.blockNumber || a.logIndex - b.logIndex,
      )
      .map(seenMessage),
  requestCount: () => modes.requests,
  sync,
});
