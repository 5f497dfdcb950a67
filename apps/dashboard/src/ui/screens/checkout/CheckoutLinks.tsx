import { useState } from 'preact/hooks';
import { useDashboard } from '../../context.js';
import { CreateSessionForm } from './CreateSessionForm.js';
import { SessionCard, sessionsMade } from './SessionCard.js';

/**
 * Checkout links: a session made here opens the hosted checkout page for the customer. The API
 * lists no sessions, so the ones made during this visit are shown, newest first, each followed
 * until it is paid or expires.
 */
export const CheckoutLinks = () => {
  const { t } = useDashboard();
  const [made, setMade] = useState<string[]>(sessionsMade);
  return (
    <>
      <h1>{t('checkoutTitle')}</h1>
      <p class="muted">{t('checkoutIntro')}</p>
      {made.map((id) => (
        <SessionCard key={id} id={id} />
      ))}
      <CreateSessionForm onCreated={() => setMade(sessionsMade())} />
    </>
  );
};
