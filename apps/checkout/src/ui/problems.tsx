import type { Translate } from '../i18n.js';
import type { PayError } from '../pay/errors.js';

/** The customer's sentence for a problem, with the payment's words (amount, token, chain) filled in. */
export const problemText = (err: PayError, t: Translate, vars: Record<string, string>): string => {
  switch (err.problem) {
    case 'rejected':
      return t('errRejected');
    case 'wrong_network':
      return t('errWrongNetwork', vars);
    case 'balance':
      return t('errBalance', { ...vars, ...err.vars });
    case 'reverted':
      return t('errReverted');
    case 'session_expired':
      return t('expiredWhilePaying');
    case 'session_complete':
      return t('complete');
    case 'payment_failed':
      return t('errPaymentFailed', { reason: err.vars.reason ?? '' });
    default:
      return t('errFailed', { reason: err.vars.reason ?? err.message });
  }
};

/** A problem as an alert, tagged with its kind for support and tests. */
export const ProblemNotice = ({ error, text }: { error: PayError; text: string }) => (
  <p class="notice error" role="alert" data-problem={error.problem}>
    {text}
  </p>
);
