import { useState } from 'preact/hooks';
import { formatAmount, parseAmountInput, formatMoney } from '../../../format.js';
import type { Translate } from '../../../i18n.js';
import { ApiError } from '../../../api/errors.js';
import { Alert, errorText } from '../../common.js';
import { ConfirmMoney } from '../../ConfirmMoney.js';
import { useDashboard } from '../../context.js';
import { href, navigate } from '../../router.js';
import { useIdempotencyKey } from '../../idempotency.js';
import { CurrencySelect, FieldError, TitledForm, describedBy, useSubmit } from '../../form.js';
import { chainName } from '../../chain-name.js';
import { useLoad } from '../../use-load.js';
import type { WithdrawalAddress } from './address-book.js';
import type { BodyOf } from '../../../api/operations.js';

interface Pending {
  body: BodyOf<'createWithdrawal'>;
  destination: WithdrawalAddress;
}

/** The address book's addresses whose hold has passed, one to choose; a way to the book either way. */
const DestinationChoice = ({
  t,
  ready,
  approved,
  chosen,
  disabled,
  onChoose,
}: {
  t: Translate;
  ready: boolean;
  approved: WithdrawalAddress[];
  chosen: WithdrawalAddress | undefined;
  disabled: boolean;
  onChoose: (id: string) => void;
}) => (
  <>
    <label for="w-destination">{t('destination')}</label>
    {ready && approved.length === 0 ? (
      <p class="muted" id="w-destination" data-no-destination>
        {t('noApprovedAddresses')} <a href={href('/money/addresses')}>{t('manageAddresses')}</a>
      </p>
    ) : (
      <select
        id="w-destination"
        value={chosen?.id ?? ''}
        disabled={disabled}
        onChange={(ev) => onChoose(ev.currentTarget.value)}
        aria-describedby="w-destination-hint"
      >
        {approved.map((a) => (
          <option key={a.id} value={a.id}>
            {`${a.label} · ${a.address}`}
          </option>
        ))}
      </select>
    )}
    <p id="w-destination-hint" class="hint">
      {t('destinationHint')} <a href={href('/money/addresses')}>{t('manageAddresses')}</a>
    </p>
  </>
);

/** The withdrawal as it will be sent (no amount: everything available), or why it cannot be. */
const withdrawalOf = (
  amount: string,
  currency: Pending['body']['currency'],
  chosen: WithdrawalAddress | undefined,
  t: Translate,
): Pending | string => {
  const exact = amount.trim() ? parseAmountInput(amount) : undefined;
  if (amount.trim() && (!exact || /^0\.0+$/.test(exact))) return t('withdrawAmountInvalid');
  if (!chosen) return t('noApprovedAddresses');
  return {
    body: { currency, destination_address: chosen.address, ...(exact ? { amount: exact } : {}) },
    destination: chosen,
  };
};

/** What the confirmation shows: the amount (or everything held), the destination and the chain. */
const confirmRows = (pending: Pending, held: string | undefined, chain: string, t: Translate, lang: string) =>
  [
    [
      t('colAmount'),
      pending.body.amount
        ? formatMoney(pending.body.amount, pending.body.currency, lang)
        : t('everythingAvailable', {
            held: held !== undefined ? formatAmount(held, lang) : '…',
            currency: pending.body.currency,
          }),
    ],
    [
      t('destination'),
      <>
        <strong>{pending.destination.label}</strong>
        <br />
        <code data-confirm-destination>{pending.destination.address}</code>
      </>,
    ],
    [t('colChain'), chain],
  ] as const;

/** The token to withdraw and how much of it (nothing: everything available). */
const AmountFields = ({
  t,
  currencies,
  currency,
  onCurrency,
  amount,
  onAmount,
  hint,
  error,
  disabled,
}: {
  t: Translate;
  currencies: readonly Pending['body']['currency'][];
  currency: Pending['body']['currency'];
  onCurrency: (c: Pending['body']['currency']) => void;
  amount: string;
  onAmount: (a: string) => void;
  hint: string;
  error: string | undefined;
  disabled: boolean;
}) => (
  <div class="filter-grid">
    <CurrencySelect
      id="w-currency"
      label={t('currency')}
      value={currency}
      currencies={currencies}
      onChoose={onCurrency}
      disabled={disabled}
    />
    <div class="field">
      <label for="w-amount">{t('colAmount')}</label>
      <input
        id="w-amount"
        inputMode="decimal"
        value={amount}
        disabled={disabled}
        onInput={(ev) => onAmount(ev.currentTarget.value)}
        aria-describedby={describedBy('w-amount', true, error)}
        aria-invalid={error ? true : undefined}
      />
      <FieldError id="w-amount" error={error} />
      <p id="w-amount-hint" class="hint">
        {hint}
      </p>
    </div>
  </div>
);

/** What can be withdrawn: the wallet's balance in `currency`, and the addresses whose hold has passed. */
const useWithdrawable = (currency: string) => {
  const { session } = useDashboard();
  const [balance] = useLoad(() => session.call('getWalletBalanceDashboard'), []);
  const [book] = useLoad(() => session.call('listWithdrawalAddresses'), []);
  return {
    bookRead: book.state === 'ready',
    approved: book.state === 'ready' ? book.data.addresses.filter((a) => a.status === 'active') : [],
    held:
      balance.state === 'ready' ? balance.data.balances.find((b) => b.token === currency)?.amount : undefined,
  };
};

/**
 * A withdrawal from the merchant wallet to an address of its address book whose hold has passed:
 * an amount, or everything available; confirmed with amount and destination before it is sent. A
 * retried submit carries the same Idempotency-Key, so it never moves funds twice.
 */
/** The invoicing service's refusals of an amount, in the dashboard's words and language. */
const AMOUNT_REFUSALS = {
  amount_exceeds_available: 'withdrawExceedsAvailable',
  nothing_available: 'withdrawNothingAvailable',
  amount_below_fee: 'withdrawBelowFee',
} as const;

const describeRefusal = (t: Translate, err: unknown): string => {
  const code =
    err instanceof ApiError ? err.details.find((d) => d.code && d.code in AMOUNT_REFUSALS)?.code : undefined;
  return code ? t(AMOUNT_REFUSALS[code as keyof typeof AMOUNT_REFUSALS]) : errorText(t, err);
};

export const WithdrawalForm = ({ onCreated }: { onCreated: () => void }) => {
  const { session, account, t, lang } = useDashboard();
  const [currency, setCurrency] = useState(account.merchant.accepted_currencies[0] ?? 'USDC');
  const { bookRead, approved, held } = useWithdrawable(currency);
  const [amount, setAmount] = useState('');
  const [destinationId, setDestinationId] = useState('');
  const [pending, setPending] = useState<Pending>();
  const [amountError, setAmountError] = useState<string>();
  const { busy, error, setError, submit } = useSubmit(describeRefusal);
  const idempotency = useIdempotencyKey();
  const chosen = approved.find((a) => a.id === destinationId) ?? approved[0];

  const review = (e: Event) => {
    e.preventDefault();
    const reviewed = withdrawalOf(amount, currency, chosen, t);
    const amountWrong = reviewed === t('withdrawAmountInvalid');
    setAmountError(amountWrong ? reviewed : undefined);
    setError(typeof reviewed === 'string' && !amountWrong ? reviewed : undefined);
    if (typeof reviewed !== 'string') setPending(reviewed);
  };

  // A refusal goes back to the form: what was confirmed is no longer what is shown.
  const create = async ({ body }: Pending) => {
    const made = await session
      .call('createWithdrawal', { body, idempotencyKey: idempotency.keyFor(body) })
      .catch((err: unknown) => {
        setPending(undefined);
        throw err;
      });
    idempotency.done();
    onCreated();
    navigate(`/money/withdrawals/${made.id}`);
  };
  const send = () => pending && void submit(() => create(pending));

  return (
    <TitledForm id="withdraw" title={t('requestWithdrawal')} class="card form" onSubmit={review}>
      <p class="muted">{t('withdrawIntro', { chain: chainName(account.merchant.blockchain) })}</p>
      <AmountFields
        t={t}
        currencies={account.merchant.accepted_currencies}
        currency={currency}
        onCurrency={setCurrency}
        amount={amount}
        onAmount={setAmount}
        hint={
          held !== undefined
            ? t('withdrawAmountHint', { held: formatAmount(held, lang), currency })
            : t('withdrawAmountHintPlain')
        }
        error={amountError}
        disabled={!!pending}
      />
      <DestinationChoice
        t={t}
        ready={bookRead}
        approved={approved}
        chosen={chosen}
        disabled={!!pending}
        onChoose={setDestinationId}
      />
      {error && <Alert>{error}</Alert>}
      {pending ? (
        <ConfirmMoney
          title={t('confirmWithdrawalTitle')}
          rows={confirmRows(pending, held, chainName(account.merchant.blockchain), t, lang)}
          confirmLabel={busy ? t('withdrawing') : t('confirmWithdrawal')}
          busy={busy}
          onConfirm={send}
          onBack={() => setPending(undefined)}
        />
      ) : (
        <div class="actions">
          <button type="submit" disabled={!bookRead || approved.length === 0}>
            {t('withdraw')}
          </button>
        </div>
      )}
    </TitledForm>
  );
};
