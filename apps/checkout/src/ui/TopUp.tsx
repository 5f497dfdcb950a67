import type { PublicCheckoutSessionPayment } from '@stablepay/contracts';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { GatewayClient } from '../api.js';
import { currentAccount, requestAccount, type Eip1193Provider } from '../eth/wallet.js';
import type { Translate } from '../i18n.js';
import { formatAmount, parseAmount } from '../money.js';
import { payError, type PayError } from '../pay/errors.js';
import { sendTopUp } from '../pay/top-up.js';
import type { PaymentTarget } from '../pay/types.js';
import { CheckoutCard } from './checkout/Card.js';
import { ProblemNotice } from './problems.js';

export interface TopUpProps {
  api: GatewayClient;
  provider?: Eip1193Provider;
  sessionId: string;
  /** the session's merchant, chain and token: the remainder goes where the payment went */
  target: PaymentTarget;
  payment: PublicCheckoutSessionPayment;
  timeLeft?: number;
  locale: string;
  t: Translate;
  /** the session may have moved on (completed, or asks for a different remainder) */
  onChanged(): void;
  problemText(err: PayError): string;
}

/** 0x1234…abcd, kept on one line (word joiners around the ellipsis, which may otherwise break). */
const short = (a: string) => `${a.slice(0, 6)}\u2060…\u2060${a.slice(-4)}`;

/** The wallet's current account, followed as the customer switches accounts in the wallet. */
const useWalletAccount = (provider: Eip1193Provider | undefined) => {
  const [account, setAccount] = useState<string>();
  useEffect(() => {
    if (!provider) return;
    void currentAccount(provider).then(setAccount, () => undefined);
    // The customer told to switch accounts does so in the wallet: the page follows.
    const changed = (accounts: unknown) =>
      setAccount(
        Array.isArray(accounts) && typeof accounts[0] === 'string' ? accounts[0].toLowerCase() : undefined,
      );
    provider.on?.('accountsChanged', changed);
    return () => provider.removeListener?.('accountsChanged', changed);
  }, []);
  return [account, setAccount] as const;
};

/** Sending the remainder: busy while under way, the transaction once sent, the problem if any. */
const useTopUpSend = (props: TopUpProps, payer: string, due: bigint) => {
  const [account, setAccount] = useWalletAccount(props.provider);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string>();
  const [error, setError] = useState<PayError>();
  const abort = useRef(new AbortController());
  useEffect(() => () => abort.current.abort(), []);

  const send = async () => {
    if (!props.provider) return;
    setBusy(true);
    setError(undefined);
    try {
      const acct = account ?? (await requestAccount(props.provider));
      setAccount(acct);
      if (acct.toLowerCase() !== payer) return;
      await sendTopUp({
        api: props.api,
        provider: props.provider,
        sessionId: props.sessionId,
        chain: props.target.merchantChain,
        token: props.target.currency,
        account: acct,
        recipient: props.target.walletAddress,
        due,
        signal: abort.current.signal,
        onSent: setSent,
      });
      props.onChanged();
    } catch (err) {
      if (!abort.current.signal.aborted) setError(payError(err));
    } finally {
      setBusy(false);
    }
  };
  return { account, busy, sent, error, send };
};

/**
 * The payment arrived short and the session still waits: what arrived, what is missing, and one
 * button that sends exactly that from the wallet that paid (only its transfers count).
 */
export const TopUp = (props: TopUpProps) => {
  const { payment, target, timeLeft, t, locale } = props;
  const amount = parseAmount(payment.amount)!;
  const received = parseAmount(payment.received_amount ?? '0') ?? 0n;
  const due = parseAmount(payment.amount_due ?? '0') ?? 0n;
  const payer = payment.from_address.toLowerCase();
  const { account, busy, sent, error, send } = useTopUpSend(props, payer, due);
  const wrongAccount = account !== undefined && account.toLowerCase() !== payer;
  const vars = {
    received: formatAmount(received, locale),
    amount: formatAmount(amount, locale),
    due: formatAmount(due, locale),
    token: target.currency,
    account: short(payment.from_address),
  };

  const verifying = payment.top_up_pending || (busy && sent !== undefined);
  return (
    <CheckoutCard
      state="top-up"
      merchant={target.merchantName}
      amount={amount}
      currency={target.currency}
      timeLeft={timeLeft}
      locale={locale}
      t={t}
    >
      <h2 class="subtitle">{t('topUpTitle')}</h2>
      <p class="notice warning" role="status" data-amount-due={payment.amount_due}>
        {t('topUpReceived', vars)} {t('topUpMissing', vars)}
      </p>
      {wrongAccount && (
        <p id="top-up-account" class="notice" role="status" data-wrong-account>
          {t('topUpWrongAccount', { ...vars, connected: short(account) })}
        </p>
      )}
      {verifying ? (
        <p class="hint" role="status" data-top-up-sent={sent ?? ''}>
          {t('topUpVerifying')}
        </p>
      ) : props.provider ? (
        <button
          type="button"
          class="button primary"
          onClick={send}
          disabled={busy || wrongAccount}
          aria-describedby={wrongAccount ? 'top-up-account' : undefined}
          data-top-up
        >
          {t('topUpSend', vars)}
        </button>
      ) : (
        <p class="notice">{t('noWallet')}</p>
      )}
      {error && <ProblemNotice error={error} text={props.problemText(error)} />}
    </CheckoutCard>
  );
};
