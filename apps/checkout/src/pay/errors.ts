import { ApiError } from '../api.js';
import { WalletError } from '../eth/wallet.js';

/** Problems the customer can act on, each with its own plain sentence; anything else is `failed`. */
export type PayProblem =
  | 'rejected'
  | 'wrong_network'
  | 'balance'
  | 'reverted'
  | 'session_expired'
  | 'session_complete'
  | 'payment_failed'
  | 'top_up_needed'
  | 'failed';

export class PayError extends Error {
  constructor(
    readonly problem: PayProblem,
    message: string,
    readonly vars: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'PayError';
  }
}

export const payError = (err: unknown): PayError => {
  if (err instanceof PayError) return err;
  if (err instanceof WalletError) {
    if (err.problem === 'rejected') return new PayError('rejected', err.message);
    if (err.problem === 'unsupported_chain') return new PayError('wrong_network', err.message);
  }
  if (err instanceof ApiError) {
    if (err.code === 'session_expired') return new PayError('session_expired', err.message);
    if (err.code === 'session_used') return new PayError('session_complete', err.message);
  }
  // A short reason for the sentence; the details stay in the console for support.
  console.error(err);
  const reason = err instanceof Error ? err.message : String(err);
  return new PayError('failed', reason, { reason: reason.slice(0, 160) });
};
