import type { PublicChains, PublicCheckoutSession } from '@stablepay/contracts';
import type { GatewayClient } from '../api.js';
import type { Translate } from '../i18n.js';
import { formatAmount } from '../money.js';
import type { PaymentOutcome, PaymentTarget } from '../pay/types.js';
import { Ended } from './checkout/Ended.js';
import { OpenView } from './checkout/OpenView.js';
import { useCheckout } from './checkout/use-checkout.js';
import { chainLabel } from '../chains.js';
import { safeUrl } from './links.js';
import { problemText } from './problems.js';
import { TopUp } from './TopUp.js';

export interface CheckoutProps {
  api: GatewayClient;
  chains: PublicChains;
  target: PaymentTarget;
  /** Fixed by the session or the widget's options; absent: the customer enters it. */
  fixedAmount?: bigint;
  session?: PublicCheckoutSession;
  email?: string;
  locale: string;
  t: Translate;
  /** The page is done: a session redirects, the widget tells its host page. */
  onFinished(result: { status: 'completed' | 'cancelled'; outcome?: PaymentOutcome }): void;
}

/**
 * The page for one payment: paid or expired, asking for a missing remainder, or open with the
 * customer's entries, the wallet's ways to pay, the steps of a payment under way and the QR code.
 */
export const Checkout = (props: CheckoutProps) => {
  const { api, target, t, locale } = props;
  const c = useCheckout(props);
  const { form, payment, session, status } = c;
  const { steps, running, outcome } = payment;
  const card = {
    merchant: target.merchantName,
    logo: target.branding?.logoUrl,
    currency: target.currency,
    locale,
    t,
  };
  const vars = {
    amount: form.amount !== undefined ? formatAmount(form.amount, locale) : '',
    token: target.currency,
    chain: chainLabel(target.merchantChain),
    dest: chainLabel(target.merchantChain),
    merchant: target.merchantName,
  };
  const returnUrl = safeUrl(session?.return_url);
  const cancelUrl = safeUrl(session?.cancel_url) ?? returnUrl;

  if (outcome?.status === 'completed' || (status === 'complete' && !running)) {
    const hint = outcome && returnUrl ? t('redirecting') : undefined;
    const notice = outcome ? t('paid') : t('complete');
    return (
      <Ended
        state="complete"
        {...card}
        amount={form.amount}
        notice={notice}
        hint={hint}
        backUrl={returnUrl}
        outcome={outcome}
        chains={props.chains.chains}
      />
    );
  }
  if (status === 'expired') {
    const notice = steps.some((s) => s.txHash) ? t('expiredWhilePaying') : t('expired');
    return <Ended state="expired" {...card} amount={form.amount} notice={notice} backUrl={cancelUrl} />;
  }
  if (c.awaiting && target.sessionId) {
    return (
      <TopUp
        api={api}
        provider={c.provider}
        sessionId={target.sessionId}
        target={target}
        payment={c.awaiting}
        timeLeft={c.timeLeft}
        locale={locale}
        t={t}
        onChanged={() => void c.refreshSession()}
        problemText={(err) => problemText(err, t, vars)}
      />
    );
  }

  return <OpenView props={props} c={c} vars={vars} cancelUrl={cancelUrl} card={card} />;
};
