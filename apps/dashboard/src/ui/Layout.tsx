import type { ComponentChildren } from 'preact';
import type { Messages } from '../i18n.js';
import { Clip } from './common.js';
import { LanguagePicker } from './LanguagePicker.js';
import { ReconciliationBanner } from './ReconciliationBanner.js';
import { UnconfirmedBanner } from './UnconfirmedBanner.js';
import { useDashboard } from './context.js';
import { href } from './router.js';

/** The screens in the menu, in its order: the first segment of each one's route, and its label. */
export const SECTIONS: Readonly<Record<string, keyof Messages>> = {
  '': 'navHome',
  payments: 'navPayments',
  refunds: 'navRefunds',
  checkout: 'navCheckout',
  balance: 'navBalance',
  money: 'navMoney',
  developers: 'navDevelopers',
  settings: 'navSettings',
  security: 'navSecurity',
};

export const Layout = ({
  section,
  onLanguage,
  children,
}: {
  section: string;
  onLanguage: (lang: string) => void;
  children: ComponentChildren;
}) => {
  const { session, account, t, lang } = useDashboard();
  return (
    <>
      <a class="skip" href="#main">
        {t('skipToContent')}
      </a>
      <header class="top">
        <div class="brand">
          <span class="logo">{t('appName')}</span>
          <span class="merchant">
            <Clip value={account.merchant.name} />
          </span>
        </div>
        <div class="account">
          <LanguagePicker lang={lang} t={t} onChange={onLanguage} />
          <span class="muted who">
            <Clip value={t('signedInAs', { email: account.user.email })} />
          </span>
          <button type="button" class="secondary" onClick={() => void session.signOut()}>
            {t('signOut')}
          </button>
        </div>
      </header>
      <nav aria-label={t('mainNav')} class="sections">
        <ul>
          {Object.entries(SECTIONS).map(([path, label]) => (
            <li key={path}>
              <a href={href(`/${path}`)} aria-current={section === path ? 'page' : undefined}>
                {t(label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <UnconfirmedBanner />
        <ReconciliationBanner section={section} />
        {children}
      </main>
    </>
  );
};
