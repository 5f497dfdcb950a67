import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Session, SessionState } from '../api/session.js';
import {
  loadWords,
  pickLanguage,
  rememberLanguage,
  translator,
  type Language,
  type Translate,
  type Words,
} from '../i18n.js';
import { DashboardContext, useDashboard } from './context.js';
import { LanguagePicker } from './LanguagePicker.js';
import { Layout } from './Layout.js';
import { useRoute, type Route } from './router.js';
import { BalanceTransactions } from './screens/balance/BalanceTransactions.js';
import { CheckoutLinks } from './screens/checkout/CheckoutLinks.js';
import { Developers } from './screens/Developers.js';
import { Home } from './screens/Home.js';
import { PaymentDetail } from './screens/payments/PaymentDetail.js';
import { BillingProfile } from './screens/money/BillingProfile.js';
import { Invoices } from './screens/money/Invoices.js';
import { WithdrawalAddresses } from './screens/money/WithdrawalAddresses.js';
import { WithdrawalDetail } from './screens/money/WithdrawalDetail.js';
import { Withdrawals } from './screens/money/Withdrawals.js';
import { Payments } from './screens/payments/Payments.js';
import { RefundDetail } from './screens/refunds/RefundDetail.js';
import { Refunds } from './screens/refunds/Refunds.js';
import { ConfirmEmail } from './screens/signup/ConfirmEmail.js';
import { Register } from './screens/signup/Register.js';
import { Security } from './screens/security/Security.js';
import { Settings } from './screens/settings/Settings.js';
import { SignIn } from './screens/SignIn.js';
import { WebhookDetail } from './screens/webhooks/WebhookDetail.js';

const Screen = ({ route }: { route: Route }) => {
  const [section, id, sub] = route.path;
  switch (section) {
    case undefined:
      return <Home />;
    case 'developers':
      if (id === 'webhooks' && sub) return <WebhookDetail id={sub} />;
      return id ? <NotFound /> : <Developers />;
    case 'payments':
      return id ? <PaymentDetail id={id} /> : <Payments route={route} />;
    case 'refunds':
      return id ? <RefundDetail id={id} /> : <Refunds route={route} />;
    case 'checkout':
      return <CheckoutLinks route={route} />;
    case 'balance':
      return id ? <NotFound /> : <BalanceTransactions route={route} />;
    case 'security':
      return <Security />;
    case 'settings':
      return id ? <NotFound /> : <Settings />;
    case 'confirm-email':
      return <SignedInConfirmEmail token={route.query.get('token') ?? ''} />;
    case 'money':
      if (id === undefined) return <Withdrawals />;
      if (id === 'invoices') return <Invoices route={route} />;
      if (id === 'billing') return <BillingProfile />;
      if (id === 'addresses') return sub ? <NotFound /> : <WithdrawalAddresses />;
      return id === 'withdrawals' && sub ? <WithdrawalDetail id={sub} /> : <NotFound />;
    default:
      return <NotFound />;
  }
};

const SignedInConfirmEmail = ({ token }: { token: string }) => {
  const { session, t } = useDashboard();
  return <ConfirmEmail session={session} t={t} token={token} />;
};

/** The screens of a signed-out visitor: sign in, register, or the e-mailed confirmation link. */
const SignedOut = ({
  route,
  session,
  t,
  lang,
  expired,
}: {
  route: Route;
  session: Session;
  t: Translate;
  lang: Language;
  expired: boolean;
}) => {
  switch (route.path[0]) {
    case 'register':
      return <Register session={session} t={t} lang={lang} />;
    case 'confirm-email':
      return (
        <main id="main" class="narrow">
          <ConfirmEmail session={session} t={t} token={route.query.get('token') ?? ''} />
        </main>
      );
    default:
      return <SignIn session={session} t={t} expired={expired} />;
  }
};

const NotFound = () => {
  const { t } = useDashboard();
  return <p>{t('notFound')}</p>;
};

export const App = ({ session, words: first }: { session: Session; words: Words }) => {
  const [state, setState] = useState<SessionState>(session.state);
  const [{ lang, messages }, setWords] = useState<Words>(first);
  const asked = useRef(0);
  const route = useRoute();
  const t = useMemo(() => translator(messages), [messages]);
  useEffect(() => session.subscribe(setState), [session]);
  // Set with the words, before the page paints them (assistive technology reads them by it).
  useLayoutEffect(() => {
    document.documentElement.lang = lang;
    document.title = t('appName');
  }, [lang]);
  // A catalogue arrives after a moment; only the last language asked for is applied. Signed in, the
  // choice is the merchant's language too: their e-mails are written in it (merchant settings).
  const chooseLanguage = (next: string) => {
    const picked = pickLanguage(next, []);
    rememberLanguage(picked);
    if (session.state.kind === 'signed-in')
      void session
        .call('updateMerchantSettingsDashboard', { body: { language: picked } })
        .catch(() => undefined);
    const ask = ++asked.current;
    void loadWords(picked).then((words) => {
      if (ask === asked.current) setWords(words);
    });
  };

  if (state.kind === 'signed-out') {
    return (
      <>
        <header class="top public">
          <span class="logo">{t('appName')}</span>
          <LanguagePicker lang={lang} t={t} onChange={chooseLanguage} />
        </header>
        <SignedOut route={route} session={session} t={t} lang={lang} expired={state.reason === 'expired'} />
      </>
    );
  }
  return (
    <DashboardContext.Provider value={{ session, account: state.account, t, lang }}>
      <Layout section={route.path[0] ?? ''} onLanguage={chooseLanguage}>
        <Screen route={route} />
      </Layout>
    </DashboardContext.Provider>
  );
};
