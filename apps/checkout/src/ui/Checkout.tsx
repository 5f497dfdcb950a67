import type { PublicChains, PublicCheckoutSession } from '@stablepay/contracts';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { GatewayClient } from '../api.js';
import { blockNumber } from '../eth/rpc.js';
import { currentAccount, injectedProvider, requestAccount } from '../eth/wallet.js';
import type { Translate } from '../i18n.js';
import { MAX_AMOUNT, MIN_AMOUNT, formatAmount, parseAmount, toDecimal } from '../money.js';
import { PayError, payError } from '../pay/errors.js';
import { clearPending, loadPending, pendingKey, savePending } from '../pay/pending.js';
import { qrTagUnits } from '../pay/qr-tag.js';
import { watchForQrTransfer } from '../pay/qr-watch.js';
import { paySameChain } from '../pay/same-chain.js';
import type {
  PayContext,
  PaymentOutcome,
  PaymentTarget,
  PayOption,
  PendingPayment,
  Step,
  StepKind,
} from '../pay/types.js';
import { safeUrl } from './links.js';
import { readOptions } from './options.js';
import { Progress } from './Progress.js';
import { QrPanel } from './QrPanel.js';
import { Summary, useTimeLeft } from './Summary.js';
import { TopUp } from './TopUp.js';

export interface CheckoutProps {
  api: GatewayClient;
  chains: PublicChains;
  target: PaymentTarget;
  /** Fixed by the session or the widget's options; absent: the customer enters it. */
  fixedAmount?: bigint;
  session?: PublicCheckoutSession;
  email?: string;
  locale: string;
  t: Translate;
  /** The page is done: a session redirects, the widget tells its host page. */
  onFinished(result: { status: 'completed' | 'cancelled'; outcome?: PaymentOutcome }): void;
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const SESSION_POLL_MS = 5000;

const stepsFor = (kind: PendingPayment['kind'], withProof: boolean): Step[] => {
  const kinds: StepKind[] =
    kind === 'qr'
      ? ['transfer', 'record', 'settle']
      : kind === 'same-chain'
        ? ['switch', ...(withProof ? (['proof'] as const) : []), 'transfer', 'confirm', 'record', 'settle']
        : [
            'switch',
            ...(withProof ? (['proof'] as const) : []),
            'approve',
            'burn',
            'attest',
            'mint',
            'record',
            'settle',
          ];
  return kinds.map((k) => ({ kind: k, state: 'waiting' }));
};

const problemText = (err: PayError, t: Translate, vars: Record<string, string>): string => {
  switch (err.problem) {
    case 'rejected':
      return t('errRejected');
    case 'wrong_network':
      return t('errWrongNetwork', vars);
    case 'balance':
      return t('errBalance', { ...vars, ...err.vars });
    case 'reverted':
      return t('errReverted');
    case 'session_expired':
      return t('expiredWhilePaying');
    case 'session_complete':
      return t('complete');
    case 'payment_failed':
      return t('errPaymentFailed', { reason: err.vars.reason ?? '' });
    default:
      return t('errFailed', { reason: err.vars.reason ?? err.message });
  }
};

export const Checkout = (props: CheckoutProps) => {
  const { api, chains, target, t, locale } = props;
  const provider = useMemo(injectedProvider, []);
  const [session, setSession] = useState(props.session);
  const [email, setEmail] = useState(props.email ?? '');
  const [amountText, setAmountText] = useState('');
  const [touched, setTouched] = useState(false);
  const [account, setAccount] = useState<string>();
  const [connecting, setConnecting] = useState(false);
  const [options, setOptions] = useState<PayOption[]>();
  const [choice, setChoice] = useState(0);
  const [steps, setSteps] = useState<Step[]>([]);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<PayError>();
  const [outcome, setOutcome] = useState<PaymentOutcome>();
  const [qrOpen, setQrOpen] = useState(!provider);
  const [resuming, setResuming] = useState(false);
  /** The amount the QR code asks for, once the customer chose to pay that way. */
  const [qrAmount, setQrAmount] = useState<bigint>();
  const abort = useRef(new AbortController());

  const amount = props.fixedAmount ?? parseAmount(amountText);
  const amountValid = amount !== undefined && amount >= MIN_AMOUNT && amount <= MAX_AMOUNT;
  const emailValid = EMAIL_RE.test(email.trim());
  const key = pendingKey(target, props.fixedAmount === undefined ? undefined : toDecimal(props.fixedAmount));
  const status = session?.status ?? 'open';
  const vars = {
    amount: amount !== undefined ? formatAmount(amount, locale) : '',
    token: target.currency,
    chain: target.merchantChain.name,
    dest: target.merchantChain.name,
    merchant: target.merchantName,
  };

  const refreshSession = async () => {
    if (!target.sessionId) return;
    try {
      setSession(await api.session(target.sessionId));
    } catch {
      // The next poll tries again; the page keeps what it showed.
    }
  };
  const timeLeft = useTimeLeft(
    status === 'open' ? session?.expires_at : undefined,
    () => void refreshSession(),
  );

  // A customer who was asked for a top-up returns to the shop once the session completes, as after
  // any payment made on this page (whichever browser sent the rest).
  const awaiting = session?.payment?.amount_due ? session.payment : undefined;
  const toppingUp = useRef(false);
  useEffect(() => {
    if (awaiting) toppingUp.current = true;
  }, [!!awaiting]);
  useEffect(() => {
    const payment = session?.payment;
    if (status !== 'complete' || !toppingUp.current || outcome || !payment) return;
    const result: PaymentOutcome = { paymentId: payment.id, txHash: payment.tx_hash, status: 'completed' };
    setOutcome(result);
    props.onFinished({ status: 'completed', outcome: result });
  }, [status]);

  useEffect(() => {
    if (!target.sessionId || status !== 'open') return;
    const timer = setInterval(() => void refreshSession(), SESSION_POLL_MS);
    return () => clearInterval(timer);
  }, [target.sessionId, status]);

  useEffect(() => () => abort.current.abort(), []);

  const context = (): PayContext => ({
    api,
    chains,
    provider,
    target,
    signal: abort.current.signal,
    save: savePending,
    onStep: (step) =>
      setSteps((all) =>
        all.map((s) =>
          s.kind === step.kind
            ? { ...s, ...step, txHash: step.txHash ?? s.txHash, chainId: step.chainId ?? s.chainId }
            : s,
        ),
      ),
  });

  const run = async (pending: PendingPayment, option?: PayOption) => {
    setRunning(true);
    setError(undefined);
    setSteps(stepsFor(pending.kind, !!target.sessionId && pending.kind !== 'qr'));
    savePending(pending);
    try {
      const ctx = context();
      let result: PaymentOutcome;
      if (pending.kind === 'qr') result = await watchForQrTransfer(ctx, pending);
      else if (pending.kind === 'same-chain') result = await paySameChain(ctx, option!, pending);
      else result = await (await import('../pay/cross-chain.js')).payCrossChain(ctx, option!, pending);
      clearPending(pending.key);
      setOutcome(result);
      props.onFinished({ status: 'completed', outcome: result });
    } catch (err) {
      if (abort.current.signal.aborted) return;
      const problem = payError(err);
      setSteps((all) => all.map((s) => (s.state === 'active' ? { ...s, state: 'failed' } : s)));
      // Declined or unaffordable before anything was sent: start afresh next time.
      if (!pending.txHash && problem.problem !== 'failed') clearPending(pending.key);
      if (problem.problem === 'top_up_needed') {
        // Not an error: the session asks for the rest, and the top-up view takes over.
        clearPending(pending.key);
        await refreshSession();
        return;
      }
      setError(problem);
      if (problem.problem === 'session_expired' || problem.problem === 'session_complete')
        void refreshSession();
    } finally {
      setRunning(false);
    }
  };

  const optionFor = (pending: PendingPayment): PayOption | undefined => {
    const chain = chains.chains.find((c) => c.chainId === pending.sourceChainId);
    return chain && { chain, token: pending.token, crossChain: pending.kind === 'cross-chain', balance: 0n };
  };

  // A reload in the middle of a payment: pick it up where the chain says it is.
  useEffect(() => {
    const pending = loadPending(key);
    if (!pending || status === 'expired') return;
    if (pending.email) setEmail(pending.email);
    if (props.fixedAmount === undefined) setAmountText(toDecimal(BigInt(pending.amount)));
    if (pending.kind === 'qr') {
      setQrOpen(true);
      setQrAmount(BigInt(pending.transferAmount ?? pending.amount));
      void run(pending);
      return;
    }
    if (!provider) return;
    void (async () => {
      const shared = await currentAccount(provider);
      if (shared !== pending.account) return;
      setAccount(shared);
      setResuming(true);
      await run(pending, optionFor(pending));
      setResuming(false);
    })();
  }, []);

  const connect = async () => {
    if (!provider) return;
    setConnecting(true);
    setError(undefined);
    try {
      const acct = await requestAccount(provider);
      setAccount(acct);
      const found = await readOptions(chains, target, acct);
      setOptions(found);
      setChoice(
        Math.max(
          0,
          found.findIndex((o) => amount === undefined || o.balance >= amount),
        ),
      );
    } catch (err) {
      setError(payError(err));
    } finally {
      setConnecting(false);
    }
  };

  const pay = async () => {
    setTouched(true);
    const option = options?.[choice];
    if (!option || !account || !amountValid || !emailValid) return;
    if (option.balance < amount) {
      setError(
        new PayError('balance', 'Not enough balance', {
          balance: formatAmount(option.balance, locale),
          chain: option.chain.name,
        }),
      );
      return;
    }
    const fromBlock = await blockNumber(option.chain.rpcUrls).catch(() => 0n);
    await run(
      {
        key,
        kind: option.crossChain ? 'cross-chain' : 'same-chain',
        account,
        sourceChainId: option.chain.chainId,
        token: option.token,
        amount: amount.toString(),
        email: email.trim(),
        fromBlock: fromBlock.toString(),
        startedAt: Date.now(),
      },
      option,
    );
  };

  const watchQr = async () => {
    setTouched(true);
    if (!amountValid || !emailValid || running) return;
    const fromBlock = await blockNumber(target.merchantChain.rpcUrls).catch(() => 0n);
    // A session's transfer carries its tag: how the service knows it is this customer's.
    const transfer = target.sessionId ? amount + (await qrTagUnits(target.sessionId)) : amount;
    setQrAmount(transfer);
    await run({
      key,
      kind: 'qr',
      account: '',
      sourceChainId: target.merchantChain.chainId,
      token: target.currency,
      amount: amount.toString(),
      transferAmount: transfer.toString(),
      email: email.trim(),
      fromBlock: fromBlock.toString(),
      startedAt: Date.now(),
    });
  };

  const returnUrl = safeUrl(session?.return_url);
  const cancelUrl = safeUrl(session?.cancel_url) ?? returnUrl;
  const cancel = (e: Event) => {
    if (!target.sessionId) {
      e.preventDefault();
      props.onFinished({ status: 'cancelled' });
    }
  };

  if (outcome?.status === 'completed' || (status === 'complete' && !running)) {
    return (
      <section class="card done" aria-labelledby="title" data-state="complete">
        <Summary
          merchant={target.merchantName}
          amount={amount}
          currency={target.currency}
          locale={locale}
          t={t}
        />
        <p class="notice success" role="status">
          {outcome ? t('paid') : t('complete')}
        </p>
        {outcome && returnUrl && <p class="hint">{t('redirecting')}</p>}
        {returnUrl && (
          <a class="button" href={returnUrl}>
            {t('backToShop')}
          </a>
        )}
      </section>
    );
  }

  if (status === 'expired') {
    return (
      <section class="card expired" aria-labelledby="title" data-state="expired">
        <Summary
          merchant={target.merchantName}
          amount={amount}
          currency={target.currency}
          locale={locale}
          t={t}
        />
        <p class="notice warning" role="alert">
          {steps.some((s) => s.txHash) ? t('expiredWhilePaying') : t('expired')}
        </p>
        {cancelUrl && (
          <a class="button" href={cancelUrl}>
            {t('backToShop')}
          </a>
        )}
      </section>
    );
  }

  if (awaiting && target.sessionId) {
    return (
      <TopUp
        api={api}
        provider={provider}
        sessionId={target.sessionId}
        payment={awaiting}
        chain={target.merchantChain}
        token={target.currency}
        recipient={target.walletAddress}
        merchantName={target.merchantName}
        timeLeft={timeLeft}
        locale={locale}
        t={t}
        onChanged={() => void refreshSession()}
        problemText={(err) => problemText(err, t, vars)}
      />
    );
  }

  const option = options?.[choice];
  // The QR path shows its steps once the transfer is seen; until then the code is what matters.
  const showSteps =
    steps.length > 0 && !(qrAmount !== undefined && steps.every((st) => st.state === 'waiting'));
  const showAmountError = touched && props.fixedAmount === undefined && !amountValid;
  const showEmailError = touched && !emailValid;
  return (
    <section class="card" aria-labelledby="title" data-state="open">
      <Summary
        merchant={target.merchantName}
        amount={props.fixedAmount}
        currency={target.currency}
        timeLeft={timeLeft}
        locale={locale}
        t={t}
      />
      <div class="fields">
        {props.fixedAmount === undefined && (
          <div class="field">
            <label for="amount">
              {t('amount')} ({target.currency})
            </label>
            <input
              id="amount"
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              value={amountText}
              disabled={running}
              aria-invalid={showAmountError}
              aria-describedby="amount-hint"
              onInput={(e) => setAmountText((e.target as HTMLInputElement).value)}
            />
            <small id="amount-hint" class={showAmountError ? 'error' : 'hint'}>
              {showAmountError ? t('amountInvalid') : t('amountHint')}
            </small>
          </div>
        )}
        <div class="field">
          <label for="email">{t('email')}</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            disabled={running}
            aria-invalid={showEmailError}
            aria-describedby={showEmailError ? 'email-error' : undefined}
            onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
          />
          {showEmailError && (
            <small id="email-error" class="error">
              {t('emailInvalid')}
            </small>
          )}
        </div>
      </div>

      {provider ? (
        <div class="wallet">
          {!account ? (
            <button type="button" class="button primary" onClick={connect} disabled={connecting || running}>
              {connecting ? t('connecting') : t('connect')}
            </button>
          ) : (
            <p class="hint" data-account={account}>
              {t('connected', { account: `${account.slice(0, 6)}…${account.slice(-4)}` })}
            </p>
          )}
          {resuming && <p class="hint">{t('resume')}</p>}
          {options && options.length > 0 && (
            <fieldset class="options" disabled={running}>
              <legend>{t('chooseWay')}</legend>
              {options.map((o, i) => {
                const enough = amount === undefined || o.balance >= amount;
                const id = `option-${i}`;
                return (
                  <div class={`option${enough ? '' : ' short'}`} key={id}>
                    <input
                      type="radio"
                      id={id}
                      name="option"
                      checked={choice === i}
                      data-chain={o.chain.name}
                      data-cross-chain={o.crossChain}
                      onChange={() => setChoice(i)}
                    />
                    <label for={id}>
                      <span class="option-name">
                        {t(o.crossChain ? 'crossChain' : 'sameChain', {
                          token: o.token,
                          chain: o.chain.name,
                          dest: target.merchantChain.name,
                        })}
                      </span>
                      <span class="option-balance">
                        {t('balance', { amount: formatAmount(o.balance, locale), token: o.token })}
                        {!enough && ` · ${t('notEnough', { token: o.token })}`}
                      </span>
                    </label>
                  </div>
                );
              })}
            </fieldset>
          )}
          {options && !options.some((o) => amount === undefined || o.balance >= amount) && (
            <p class="notice warning">{t('noWay', { token: target.currency })}</p>
          )}
          {account && option && (
            <button type="button" class="button primary" onClick={pay} disabled={running} data-pay>
              {t('pay', { amount: amountValid ? formatAmount(amount, locale) : '', token: target.currency })}
            </button>
          )}
        </div>
      ) : (
        <p class="notice">{t('noWallet')}</p>
      )}

      {error && (
        <p class="notice error" role="alert" data-problem={error.problem}>
          {problemText(error, t, vars)}
        </p>
      )}
      {showSteps && (
        <Progress
          steps={steps}
          chains={chains.chains}
          vars={vars}
          t={t}
          formatUnits={(units) => formatAmount(units, locale)}
        />
      )}

      <details
        class="qr-section"
        open={qrOpen}
        onToggle={(e) => setQrOpen((e.target as HTMLDetailsElement).open)}
      >
        <summary>{t('payWithQr')}</summary>
        {qrAmount !== undefined ? (
          <>
            <QrPanel
              chain={target.merchantChain}
              currency={target.currency}
              address={target.walletAddress}
              amount={qrAmount}
              t={t}
            />
            {running && (
              <p class="hint" role="status">
                {t('qrWaiting')}
              </p>
            )}
          </>
        ) : (
          <button type="button" class="button" onClick={watchQr} disabled={running} data-show-qr>
            {t('qrShow')}
          </button>
        )}
      </details>

      <footer class="actions">
        {(cancelUrl || !target.sessionId) && (
          <a class="link" href={cancelUrl ?? '#'} onClick={cancel} data-cancel>
            {t(target.sessionId ? 'cancel' : 'close')}
          </a>
        )}
      </footer>
    </section>
  );
};
