import { useState } from 'preact/hooks';
import { useDashboard } from '../../context.js';
import type { Route } from '../../router.js';
import { CreateSessionForm } from './CreateSessionForm.js';
import { SessionCard, sessionsMade } from './SessionCard.js';
import { SessionList } from './SessionList.js';

/**
 * Checkout links: a session made here opens the hosted checkout page for the customer. The ones
 * made during this visit are shown first, each followed until it is paid or expires; every
 * session of the merchant is in the list below.
 */
export const CheckoutLinks = ({ route }: { route: Route }) => {
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
      <SessionList route={route} version={made.length} />
    </>
  );
};
