import type { GaslessRefusalCode } from '@stablepay/contracts';
import { ApiError } from '../api.js';
import { WalletError } from '../eth/wallet.js';

/** Problems the customer can act on, each with its own plain sentence; anything else is `failed`. */
export type PayProblem =
  | 'rejected'
  | 'wrong_network'
  | 'balance'
  | 'gas'
  | 'reverted'
  | 'session_expired'
  | 'session_complete'
  | 'payment_failed'
  | 'top_up_needed'
  | 'refused'
  | 'rate_limited'
  | 'quote_expired'
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

/**
 * The reasons the gateway gives for refusing an authorization (GaslessRefusalCode in contracts),
 * each a sentence of its own. A record, so that a code added there fails this build until it has
 * one; written out rather than parsed, as the page bundles no zod schema.
 */
const REFUSALS: Record<GaslessRefusalCode, true> = {
  authorization_signature_invalid: true,
  authorization_insufficient_balance: true,
  authorization_nonce_used: true,
  authorization_nonce_mismatch: true,
  authorization_not_yet_valid: true,
  authorization_expired: true,
  authorization_window_too_long: true,
  authorization_value_mismatch: true,
  authorization_recipient_mismatch: true,
  token_not_supported: true,
  authorization_refused_by_token: true,
  relay_gas_budget_spent: true,
  relay_low_on_gas: true,
  payer_rate_limited: true,
  quote_signature_invalid: true,
  quote_expired: true,
  quote_mismatch: true,
  quote_used: true,
};

export const isRefusal = (code: string | undefined): code is GaslessRefusalCode =>
  code !== undefined && Object.hasOwn(REFUSALS, code);

/** Whole minutes to wait, from the gateway's Retry-After (at least one). */
const minutes = (seconds: number | undefined): string => String(Math.max(1, Math.ceil((seconds ?? 60) / 60)));

const fromApi = (err: ApiError): PayError | undefined => {
  if (err.code === 'session_expired') return new PayError('session_expired', err.message);
  if (err.code === 'session_used') return new PayError('session_complete', err.message);
  // Two refusals the customer meets elsewhere too: waiting out a rate limit, and a quote grown old.
  if (err.code === 'payer_rate_limited' || (err.status === 429 && !isRefusal(err.code)))
    return new PayError('rate_limited', err.message, { minutes: minutes(err.retryAfter) });
  if (err.code === 'quote_expired') return new PayError('quote_expired', err.message);
  if (isRefusal(err.code))
    return new PayError('refused', err.message, { code: err.code, minutes: minutes(err.retryAfter) });
  if (err.status === 429)
    return new PayError('rate_limited', err.message, { minutes: minutes(err.retryAfter) });
  return undefined;
};

/**
 * Any failure as the customer's problem. What the wallet or a provider said in its own words never
 * reaches the page: an unknown failure gets the generic sentence, and its details go to the console
 * for support.
 */
export const payError = (err: unknown): PayError => {
  if (err instanceof PayError) return err;
  if (err instanceof WalletError) {
    if (err.problem === 'rejected') return new PayError('rejected', err.message);
    if (err.problem === 'unsupported_chain') return new PayError('wrong_network', err.message);
    if (err.problem === 'no_gas') return new PayError('gas', err.message);
  }
  if (err instanceof ApiError) {
    const known = fromApi(err);
    if (known) return known;
  }
  console.error(err);
  return new PayError('failed', err instanceof Error ? err.message : String(err));
};
