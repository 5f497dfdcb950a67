import { baseUnitsToDecimal, type ChainPaymentRejectReason, type Currency } from '@stablepay/contracts';
import type { TokenTransfer } from '../chain/erc20.js';
import { sameAddress } from '../chain/same-address.js';

/** A Transfer log of the payment's token into the merchant wallet: what the ledger records. */
export interface IncomingLog {
  logIndex: number;
  from: string;
  to: string;
  value: bigint;
}

/** What a check of one payment concluded. */
export type Outcome =
  | {
      kind: 'verified';
      receivedUnits: bigint;
      blockNumber: number;
      blockHash: string;
      blockTimestamp: Date;
      confirmations: number;
      /** the merchant wallet the transfer reached */
      toAddress: string;
      incoming?: IncomingLog[];
    }
  | {
      kind: 'rejected';
      reason: ChainPaymentRejectReason;
      receivedUnits: bigint | null;
      detail: string;
      blockNumber?: number;
      blockHash?: string;
      incoming?: IncomingLog[];
    }
  | {
      kind: 'wait';
      /** not_found and rpc back off exponentially; confirmations and reorg re-check at the poll pace */
      why: 'not_found' | 'confirmations' | 'reorg' | 'rpc';
      detail: string;
      blockNumber: number | null;
      blockHash: string | null;
    };

/** A verdict: the row leaves `pending`. */
export type Final = Extract<Outcome, { kind: 'verified' | 'rejected' }>;
/** The row stays pending and is looked at again. */
export type Wait = Extract<Outcome, { kind: 'wait' }>;

export type Rejection = Extract<Outcome, { kind: 'rejected' }>;

export const reject = (
  reason: ChainPaymentRejectReason,
  detail: string,
  receivedUnits: bigint | null = null,
): Rejection => ({ kind: 'rejected', reason, receivedUnits, detail });

const amount = (units: bigint): string => baseUnitsToDecimal(units);

export interface TransferExpectation {
  token: Currency;
  /** the registry's contract of `token` on the payment's chain */
  tokenAddress: string;
  /** symbol of any other contract the registry knows on this chain */
  knownTokenAt: (address: string) => Currency | undefined;
  fromAddress: string;
  wallet: string;
  expectedUnits: bigint;
}

/**
 * Reads the payment out of the transaction's Transfer logs. Only logs of the configured contract
 * count: a token with the same symbol at another address is not USDC. Several matching transfers
 * in one transaction (a batching wallet) add up. Overpayment is accepted with the amount received.
 */
export const evaluateTransfers = (
  transfers: TokenTransfer[],
  x: TransferExpectation,
): { kind: 'paid'; receivedUnits: bigint } | Rejection => {
  const ofToken = transfers.filter((t) => sameAddress(t.token, x.tokenAddress));
  if (ofToken.length === 0) {
    const others = [...new Set(transfers.map((t) => x.knownTokenAt(t.token)).filter((s) => s !== undefined))];
    return reject(
      'wrong_token',
      others.length > 0
        ? `the transaction moves ${others.join(', ')}, not ${x.token}`
        : `the transaction has no ${x.token} transfer (contract ${x.tokenAddress})`,
    );
  }
  const fromSender = ofToken.filter((t) => sameAddress(t.from, x.fromAddress));
  if (fromSender.length === 0) {
    return reject('wrong_sender', `no ${x.token} transfer from ${x.fromAddress} in the transaction`);
  }
  const paid = fromSender.filter((t) => sameAddress(t.to, x.wallet));
  if (paid.length === 0) {
    return reject(
      'wrong_recipient',
      `${x.token} from ${x.fromAddress} went to ${[...new Set(fromSender.map((t) => t.to))].join(', ')}, not the merchant wallet ${x.wallet}`,
    );
  }
  const received = paid.reduce((sum, t) => sum + t.value, 0n);
  if (received < x.expectedUnits) {
    return reject(
      'underpaid',
      `received ${amount(received)} ${x.token}, expected ${amount(x.expectedUnits)}`,
      received,
    );
  }
  return { kind: 'paid', receivedUnits: received };
};

/**
 * A transaction mined before the checkout session existed cannot have paid it (an old transfer
 * replayed against a new session). Block timestamps have second precision, so the session time is
 * compared at the same precision.
 */
export const checkSessionTime = (
  blockTimestamp: Date,
  sessionCreatedAt: Date | null,
): Rejection | undefined => {
  if (!sessionCreatedAt) return undefined;
  const sessionSecond = Math.floor(sessionCreatedAt.getTime() / 1000);
  if (Math.floor(blockTimestamp.getTime() / 1000) >= sessionSecond) return undefined;
  return reject(
    'session_expired_before_tx',
    `transaction mined at ${blockTimestamp.toISOString()}, before the checkout session was created at ${sessionCreatedAt.toISOString()}`,
  );
};

/** Blocks on top of the including block, the including block being the first (1 = just mined). */
export const confirmationsOf = (head: number, blockNumber: number): number =>
  Math.max(0, head - blockNumber + 1);

/**
 * When to look at a pending payment again: exponential from the poll interval for things that may
 * take long (an RPC outage, a transaction not visible yet), capped; the poll pace for a block depth
 * that grows by itself. Never past the tx_not_found deadline, so that verdict is not late.
 */
export const nextCheckDelay = (opts: {
  why: Extract<Outcome, { kind: 'wait' }>['why'];
  backoffStep: number;
  pollMs: number;
  maxBackoffMs: number;
  blockTimeMs?: number;
  msUntilNotFound?: number;
}): { delayMs: number; backoffStep: number } => {
  if (opts.why === 'confirmations' || opts.why === 'reorg') {
    const pace = Math.max(opts.pollMs, Math.min(opts.blockTimeMs ?? 0, opts.maxBackoffMs));
    return { delayMs: pace, backoffStep: 0 };
  }
  const step = opts.backoffStep + 1;
  let delayMs = Math.min(opts.pollMs * 2 ** Math.min(step - 1, 30), opts.maxBackoffMs);
  if (opts.why === 'not_found' && opts.msUntilNotFound !== undefined) {
    delayMs = Math.max(0, Math.min(delayMs, opts.msUntilNotFound));
  }
  return { delayMs, backoffStep: step };
};
