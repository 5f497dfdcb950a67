import type { Session } from '../../../api/session.js';
import type { Translate } from '../../../i18n.js';
import { href } from '../../router.js';
import { ResendLink } from './ResendLink.js';

/**
 * What follows a registration, whether the address was new or already had an account: the gateway
 * answers both alike, so this page cannot (and does not) tell them apart.
 */
export const CheckEmail = ({ session, t, email }: { session: Session; t: Translate; email: string }) => (
  <main id="main" class="narrow">
    <h1>{t('checkEmailTitle')}</h1>
    <section class="card signup-card" aria-live="polite">
      <p>{t('checkEmailText', { email })}</p>
      <p>{t('checkEmailUntil')}</p>
      <p class="muted">{t('checkEmailNothing')}</p>
      <ResendLink session={session} t={t} email={email} />
    </section>
    <p>
      <a href={href('/')}>{t('signIn')}</a>
    </p>
  </main>
);
