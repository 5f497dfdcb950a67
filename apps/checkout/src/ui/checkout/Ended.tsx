import type { SummaryProps } from '../Summary.js';
import { CheckoutCard } from './Card.js';

export interface EndedProps extends Omit<SummaryProps, 'timeLeft'> {
  state: 'complete' | 'expired';
  notice: string;
  /** Shown under the notice, e.g. that the page is about to return to the shop. */
  hint?: string;
  backUrl?: string;
}

/** Paid, or too late: what happened, and the way back to the shop when the merchant gave one. */
export const Ended = ({ notice, hint, backUrl, ...card }: EndedProps) => {
  const complete = card.state === 'complete';
  return (
    <CheckoutCard {...card}>
      <p class={complete ? 'notice success' : 'notice warning'} role={complete ? 'status' : 'alert'}>
        {notice}
      </p>
      {hint && <p class="hint">{hint}</p>}
      {backUrl && (
        <a class="button" href={backUrl}>
          {card.t('backToShop')}
        </a>
      )}
    </CheckoutCard>
  );
};
