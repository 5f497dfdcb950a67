import type { ComponentChildren } from 'preact';
import { Summary, type SummaryProps } from '../Summary.js';

export type CardState = 'open' | 'top-up' | 'complete' | 'expired';

const CARD_CLASS: Record<CardState, string> = {
  open: 'card',
  'top-up': 'card',
  complete: 'card done',
  expired: 'card expired',
};

export interface CardProps extends SummaryProps {
  state: CardState;
  children?: ComponentChildren;
}

/** What every state of the page shows first: to whom, how much, and (while open) the time left. */
export const CheckoutCard = ({ state, children, ...summary }: CardProps) => (
  <section class={CARD_CLASS[state]} aria-labelledby="title" data-state={state}>
    <Summary {...summary} />
    {children}
  </section>
);
