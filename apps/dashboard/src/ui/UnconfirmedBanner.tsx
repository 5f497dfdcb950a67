import { ResendLink } from './screens/signup/ResendLink.js';
import { useDashboard } from './context.js';

/**
 * On every screen while the account's address is unconfirmed: the service sends it nothing and
 * refuses its withdrawals until the e-mailed link is followed, and the merchant should know why.
 */
export const UnconfirmedBanner = () => {
  const { session, account, t } = useDashboard();
  if (account.user.email_confirmed) return null;
  return (
    <section class="unconfirmed-banner" aria-labelledby="unconfirmed-title">
      <h2 id="unconfirmed-title">{t('unconfirmedTitle')}</h2>
      <p>{t('unconfirmedText', { email: account.user.email })}</p>
      <ResendLink session={session} t={t} email={account.user.email} />
    </section>
  );
};
