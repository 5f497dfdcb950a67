import type { Currency, PublicChains, PublicCheckoutSession } from '@stablepay/contracts';
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { ApiError, gatewayClient, loadRuntimeConfig, type GatewayClient } from '../api.js';
import { LANGUAGE_NAMES, loadMessages, translator, type Language, type Messages } from '../i18n.js';
import { parseAmount } from '../money.js';
import type { PaymentOutcome, PaymentTarget } from '../pay/types.js';
import { brandingOf, useBranding } from './branding.js';
import { Checkout } from './Checkout.js';
import { safeUrl } from './links.js';

/** What the URL asks for: a checkout session, or (the widget) a merchant and an optional amount. */
export interface Request {
  sessionId?: string;
  merchantId?: string;
  amount?: string;
  currency?: string;
  email?: string;
  reference?: string;
  /** Set by the widget: the page runs in its iframe and reports to this origin. */
  hostOrigin?: string;
}

interface Loaded {
  api: GatewayClient;
  chains: PublicChains;
  target: PaymentTarget;
  fixedAmount?: bigint;
  session?: PublicCheckoutSession;
}

type State = { kind: 'loading' } | { kind: 'failed'; notFound: boolean } | { kind: 'ready'; loaded: Loaded };

const load = async (req: Request): Promise<Loaded> => {
  const { gatewayUrl } = await loadRuntimeConfig();
  const api = gatewayClient(gatewayUrl);
  const chainsP = api.chains();
  if (req.sessionId) {
    const [session, chains] = await Promise.all([api.session(req.sessionId), chainsP]);
    const merchant = session.merchant;
    const merchantChain = chains.chains.find((c) => c.chainId === merchant.chain_id);
    if (!merchant.wallet_address || !merchantChain) throw new ApiError(404, 'Merchant wallet not ready');
    return {
      api,
      chains,
      session,
      fixedAmount: session.amount === null ? undefined : parseAmount(session.amount),
      target: {
        merchantId: merchant.id,
        merchantName: merchant.name,
        walletAddress: merchant.wallet_address.toLowerCase(),
        merchantChain,
        currency: session.currency,
        sessionId: session.id,
        branding: brandingOf(gatewayUrl, merchant),
      },
    };
  }
  if (!req.merchantId) throw new ApiError(404, 'Nothing to pay');
  const [info, wallet, chains] = await Promise.all([
    api.merchantInfo(req.merchantId),
    api.merchantWallet(req.merchantId),
    chainsP,
  ]);
  const accepted = info.accepted_currencies.split(',') as Currency[];
  const currency = accepted.includes(req.currency as Currency) ? (req.currency as Currency) : accepted[0]!;
  const merchantChain = chains.chains.find((c) => c.chainId === wallet.chainId);
  if (!merchantChain) throw new ApiError(404, 'Merchant chain not served');
  return {
    api,
    chains,
    fixedAmount: req.amount ? parseAmount(req.amount) : undefined,
    target: {
      merchantId: req.merchantId,
      merchantName: info.name,
      walletAddress: wallet.address.toLowerCase(),
      merchantChain,
      currency,
      reference: req.reference,
      branding: brandingOf(gatewayUrl, info),
    },
  };
};

/** Tells the widget's host page how it ended; only that page's origin may read it. */
const tellHost = (origin: string | undefined, message: Record<string, unknown>) => {
  if (origin && window.parent !== window)
    window.parent.postMessage({ source: 'stablepay-checkout', ...message }, origin);
};

export const App = ({
  req,
  initialLang,
  initialMessages,
}: {
  req: Request;
  initialLang: Language;
  initialMessages: Messages;
}) => {
  const [{ lang, messages }, setLanguage] = useState({ lang: initialLang, messages: initialMessages });
  const [state, setState] = useState<State>({ kind: 'loading' });
  const t = translator(messages);
  const chooseLanguage = (next: Language) =>
    void loadMessages(next).then((loaded) => setLanguage({ lang: next, messages: loaded }));
  const target = state.kind === 'ready' ? state.loaded.target : undefined;
  // Set with the words, before the page paints them, so assistive technology never reads one
  // language's words under the other's name.
  useLayoutEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  useBranding(target ? t('payTo', { merchant: target.merchantName }) : t('title'), target?.branding);
  useEffect(() => {
    load(req).then(
      (loaded) => setState({ kind: 'ready', loaded }),
      (err: unknown) => {
        console.error(err);
        const notFound = err instanceof ApiError && (err.status === 404 || err.status === 400);
        setState({ kind: 'failed', notFound });
        tellHost(req.hostOrigin, { type: 'error', error: notFound ? 'not_found' : 'load_failed' });
      },
    );
  }, []);

  const finished = (result: { status: 'completed' | 'cancelled'; outcome?: PaymentOutcome }) => {
    if (req.hostOrigin) {
      tellHost(req.hostOrigin, {
        type: 'result',
        status: result.status,
        paymentId: result.outcome?.paymentId,
        txHash: result.outcome?.txHash,
      });
      return;
    }
    const session = state.kind === 'ready' ? state.loaded.session : undefined;
    const back = safeUrl(session?.return_url);
    // Long enough to read "Paid"; the merchant's page then checks the session itself.
    if (result.status === 'completed' && back) setTimeout(() => window.location.assign(back), 1500);
  };

  return (
    <main class={req.hostOrigin ? 'embedded' : undefined}>
      <div class="lang">
        <label for="lang">{t('language')}</label>
        <select
          id="lang"
          value={lang}
          onChange={(e) => chooseLanguage((e.target as HTMLSelectElement).value as Language)}
        >
          {(Object.keys(LANGUAGE_NAMES) as Language[]).map((l) => (
            <option key={l} value={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      </div>
      {state.kind === 'loading' && (
        <p class="card" role="status">
          {t('loading')}
        </p>
      )}
      {state.kind === 'failed' && (
        <section class="card" aria-labelledby="title">
          <h1 id="title">{t('title')}</h1>
          <p class="notice error" role="alert">
            {state.notFound ? t('notFound') : t('loadFailed')}
          </p>
        </section>
      )}
      {state.kind === 'ready' && (
        <Checkout {...state.loaded} email={req.email} locale={lang} t={t} onFinished={finished} />
      )}
    </main>
  );
};
