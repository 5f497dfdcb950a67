import type { GaslessRefusalCode } from '@stablepay/contracts';
import type { Messages, Translate } from '../i18n.js';
import type { PayError } from '../pay/errors.js';

/** One sentence per reason the gateway refuses an authorization: what happened, what to do. */
const REFUSAL_TEXT: Record<GaslessRefusalCode, keyof Messages> = {
  authorization_signature_invalid: 'refusedSignature',
  authorization_insufficient_balance: 'refusedBalance',
  authorization_nonce_used: 'refusedNonceUsed',
  authorization_nonce_mismatch: 'refusedStale',
  authorization_not_yet_valid: 'refusedNotYetValid',
  authorization_expired: 'refusedExpired',
  authorization_window_too_long: 'refusedStale',
  authorization_value_mismatch: 'refusedStale',
  authorization_recipient_mismatch: 'refusedStale',
  token_not_supported: 'refusedToken',
  authorization_refused_by_token: 'refusedByToken',
  relay_gas_budget_spent: 'refusedBudget',
  relay_low_on_gas: 'refusedRelayLow',
  payer_rate_limited: 'errRateLimited',
  quote_signature_invalid: 'refusedStale',
  quote_expired: 'errQuoteExpired',
  quote_mismatch: 'refusedStale',
  quote_used: 'refusedStale',
};

/** The customer's sentence for a problem, with the payment's words (amount, token, chain) filled in. */
export const problemText = (err: PayError, t: Translate, vars: Record<string, string>): string => {
  switch (err.problem) {
    case 'rejected':
      return t('errRejected');
    case 'wrong_network':
      return t('errWrongNetwork', { ...vars, chain: vars.payChain ?? vars.chain ?? '' });
    case 'balance':
      return t('errBalance', { ...vars, ...err.vars });
    case 'gas':
      return t('errGas', vars);
    case 'reverted':
      return t('errReverted');
    case 'session_expired':
      return t('expiredWhilePaying');
    case 'session_complete':
      return t('complete');
    case 'payment_failed':
      return t('errPaymentFailed');
    case 'refused':
      return t(REFUSAL_TEXT[err.vars.code as GaslessRefusalCode] ?? 'errFailed', {
        ...vars,
        minutes: err.vars.minutes ?? '1',
      });
    case 'rate_limited':
      return t('errRateLimited', { minutes: err.vars.minutes ?? '1' });
    case 'quote_expired':
      return t('errQuoteExpired');
    default:
      return t('errFailed');
  }
};

/** A problem as an alert, tagged with its kind (and a refusal's code) for support and tests. */
export const ProblemNotice = ({ error, text }: { error: PayError; text: string }) => (
  <p class="notice error" role="alert" data-problem={error.problem} data-code={error.vars.code}>
    {text}
  </p>
);
