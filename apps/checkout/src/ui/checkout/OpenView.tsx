import type { Translate } from '../../i18n.js';
import { formatAmount } from '../../money.js';
import type { PayError } from '../../pay/errors.js';
import type { StepKind } from '../../pay/types.js';
import { chainLabel } from '../../chains.js';
import { nativeSymbol } from '../native.js';
import { ProblemNotice, problemText } from '../problems.js';
import { Progress } from '../Progress.js';
import type { CheckoutProps } from '../Checkout.js';
import type { SummaryProps } from '../Summary.js';
import { CheckoutCard } from './Card.js';
import { CustomerFields } from './CustomerFields.js';
import { QrSection } from './QrSection.js';
import type { CheckoutState } from './use-checkout.js';
import { WalletPanel } from './WalletPanel.js';

export interface OpenViewProps {
  props: CheckoutProps;
  c: CheckoutState;
  /** The payment's words for the sentences: amount, token, chain, merchant. */
  vars: Record<string, string>;
  cancelUrl: string | undefined;
  /** Whom the card names, in which currency and language. */
  card: Pick<SummaryProps, 'merchant' | 'currency' | 'locale' | 't'>;
}

const Cancel = ({ props, cancelUrl, t }: { props: CheckoutProps; cancelUrl?: string; t: Translate }) => {
  const { sessionId } = props.target;
  // A session leaves for the merchant's page; the widget closes and tells its host page.
  const cancel = (e: Event) => {
    if (sessionId) return;
    e.preventDefault();
    props.onFinished({ status: 'cancelled' });
  };
  return (
    <footer class="actions">
      {(cancelUrl || !sessionId) && (
        <a class="link" href={cancelUrl ?? '#'} onClick={cancel} data-cancel>
          {t(sessionId ? 'cancel' : 'close')}
        </a>
      )}
    </footer>
  );
};

/**
 * A problem of the wallet payment, in the customer's words; a wallet short of gas for its own
 * transfer is offered the signature right there.
 */
const PaymentProblem = ({
  c,
  error,
  text,
  t,
}: {
  c: CheckoutState;
  error: PayError;
  text: string;
  t: Translate;
}) => (
  <>
    <ProblemNotice error={error} text={text} />
    {error.problem === 'gas' && c.wallet.funding === 'transfer' && (
      <button
        type="button"
        class="button"
        data-use-signature
        onClick={() => {
          c.payment.setError(undefined);
          c.wallet.setFunding('authorization');
        }}
      >
        {t('useSignature')}
      </button>
    )}
  </>
);

/** Steps that move money: once one starts, the payment goes on whatever the page does. */
const MOVING = new Set<StepKind>([
  'transfer',
  'approve',
  'burn',
  'attest',
  'mint',
  'confirm',
  'record',
  'relay',
  'settle',
]);

/** The page while the session is open: entries, the wallet's ways to pay, progress, and the QR code. */
export const OpenView = ({ props, c, vars: baseVars, cancelUrl, card }: OpenViewProps) => {
  const { target, t, locale } = props;
  const { form } = c;
  const { steps, running, error } = c.payment;
  // Sentences about the wallet's own chain (gas, balance) name the way chosen, not the merchant's.
  const payOn = c.wallet.option?.gas?.short?.chain ?? c.wallet.option?.chain ?? target.merchantChain;
  const vars = { ...baseVars, payChain: chainLabel(payOn), native: nativeSymbol(payOn.name) };
  const sentence = (err: PayError) => problemText(err, t, vars);
  // The QR path shows its steps once the transfer is seen; until then the code is what matters.
  const showSteps =
    steps.length > 0 && !(c.qr.amount !== undefined && steps.every((st) => st.state === 'waiting'));
  // Once a transaction is sent or a signature handed over, leaving would not stop the money.
  const moving = steps.some(
    (st) => st.txHash || (MOVING.has(st.kind) && (st.state === 'active' || st.state === 'done')),
  );
  return (
    <CheckoutCard state="open" {...card} amount={props.fixedAmount} timeLeft={c.timeLeft}>
      <CustomerFields form={form} currency={target.currency} disabled={running} t={t} />
      {c.provider ? (
        <WalletPanel
          wallet={c.wallet}
          amount={form.amount}
          amountValid={form.amountValid}
          currency={target.currency}
          merchantChain={target.merchantChain}
          running={running}
          resuming={c.resuming}
          locale={locale}
          t={t}
          gasless={c.gasless}
          problemText={sentence}
          onConnect={() => void c.wallet.connect(form.amount)}
          onPay={c.pay}
        />
      ) : (
        <p class="notice">{t('noWallet')}</p>
      )}
      {error && <PaymentProblem c={c} error={error} text={sentence(error)} t={t} />}
      {showSteps && (
        <Progress
          steps={steps}
          chains={props.chains.chains}
          vars={vars}
          t={t}
          formatUnits={(units) => formatAmount(units, locale)}
        />
      )}
      <QrSection
        open={c.qr.open}
        onToggle={c.qr.setOpen}
        amount={c.qr.amount}
        tag={c.qr.tag}
        target={target}
        running={running}
        t={t}
        onShow={c.watchQr}
      />
      {!moving && <Cancel props={props} cancelUrl={cancelUrl} t={t} />}
    </CheckoutCard>
  );
};
