import type { PublicChain } from '@stablepay/contracts';
import type { Translate } from '../../i18n.js';
import type { PaymentOutcome } from '../../pay/types.js';
import { explorerTx } from '../../chains.js';
import { shortHash } from '../links.js';
import type { SummaryProps } from '../Summary.js';
import { CheckoutCard } from './Card.js';
import { FeeLines } from './Funding.js';

export interface EndedProps extends Omit<SummaryProps, 'timeLeft'> {
  state: 'complete' | 'expired';
  notice: string;
  /** Shown under the notice, e.g. that the page is about to return to the shop. */
  hint?: string;
  backUrl?: string;
  /** the payment this page made: its fees and its transaction, as a receipt */
  outcome?: PaymentOutcome;
  /** the deployment's chains, for the transaction's explorer link */
  chains?: readonly PublicChain[];
}

/** What was paid: the fees and total of a signature, and the transaction that moved it. */
const Receipt = ({
  outcome,
  chains,
  locale,
  t,
}: {
  outcome: PaymentOutcome;
  chains: readonly PublicChain[];
  locale: string;
  t: Translate;
}) => {
  const on = chains.find((c) => c.chainId === outcome.chainId);
  const url = outcome.txHash ? explorerTx(on, outcome.txHash) : undefined;
  const tx = outcome.txHash && t('viewTx', { hash: shortHash(outcome.txHash) });
  return (
    <section class="receipt" aria-labelledby="receipt-title" data-receipt>
      <h2 class="subtitle" id="receipt-title">
        {t('receiptTitle')}
      </h2>
      {outcome.fees && <FeeLines quote={outcome.fees} locale={locale} t={t} paid />}
      {tx &&
        (url ? (
          <a class="tx" href={url} target="_blank" rel="noopener noreferrer" data-tx={outcome.txHash}>
            {tx}
          </a>
        ) : (
          <code class="tx" title={outcome.txHash} data-tx={outcome.txHash}>
            {tx}
          </code>
        ))}
    </section>
  );
};

/** Paid, or too late: what happened, and the way back to the shop when the merchant gave one. */
export const Ended = ({ notice, hint, backUrl, outcome, chains = [], ...card }: EndedProps) => {
  const complete = card.state === 'complete';
  return (
    <CheckoutCard {...card}>
      <p class={complete ? 'notice success' : 'notice warning'} role={complete ? 'status' : 'alert'}>
        {notice}
      </p>
      {outcome && (outcome.fees || outcome.txHash) && (
        <Receipt outcome={outcome} chains={chains} locale={card.locale} t={card.t} />
      )}
      {hint && <p class="hint">{hint}</p>}
      {backUrl && (
        <a class="button" href={backUrl}>
          {card.t('backToShop')}
        </a>
      )}
    </CheckoutCard>
  );
};
