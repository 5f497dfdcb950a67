import type { ComponentChildren } from 'preact';
import type { Messages } from '../i18n.js';
import { Clip } from './common.js';
import { LanguagePicker } from './LanguagePicker.js';
import { ReconciliationBanner } from './ReconciliationBanner.js';
import { UnconfirmedBanner } from './UnconfirmedBanner.js';
import { useDashboard } from './context.js';
import { href } from './router.js';

/** The screens in the menu: each links to the first segment of its route. */
export const SECTIONS: Array<{ path: string; label: keyof Messages }> = [
  { path: '', label: 'navHome' },
  { path: 'payments', label: 'navPayments' },
  { path: 'refunds', label: 'navRefunds' },
  { path: 'checkout', label: 'navCheckout' },
  { path: 'balance', label: 'navBalance' },
  { path: 'money', label: 'navMoney' },
  { path: 'developers', label: 'navDevelopers' },
  { path: 'settings', label: 'navSettings' },
  { path: 'security', label: 'navSecurity' },
];

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
          {SECTIONS.map((s) => (
            <li key={s.path}>
              <a href={href(`/${s.path}`)} aria-current={section === s.path ? 'page' : undefined}>
                {t(s.label)}
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
