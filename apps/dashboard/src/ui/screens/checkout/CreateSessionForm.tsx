import { useState } from 'preact/hooks';
import type { Currency } from '@stablepay/contracts';
import type { BodyOf } from '../../../api/operations.js';
import type { Translate } from '../../../i18n.js';
import { formatAmount, parseAmountInput } from '../../../format.js';
import { useDashboard } from '../../context.js';
import { CurrencySelect, FormEnd, RadioOption, TextField, TitledForm, useSubmit } from '../../form.js';
import { useIdempotencyKey } from '../../idempotency.js';
import { rememberSession } from './SessionCard.js';
import { EXPIRY_CHOICES, METADATA_KEY_MAX, METADATA_MAX_PAIRS, METADATA_VALUE_MAX } from './types.js';

interface Pair {
  key: string;
  value: string;
}

const isWebUrl = (s: string) => /^https?:\/\/\S+$/i.test(s);
/** The spec's bounds of a payment amount (0.01 to 1,000,000), in base units of six decimals. */
const MIN_UNITS = 10_000n;
const MAX_UNITS = 1_000_000_000_000n;
const inBounds = (exact: string) => {
  const units = BigInt(exact.replace('.', ''));
  return units >= MIN_UNITS && units <= MAX_UNITS;
};

interface Draft {
  fixed: boolean;
  amount: string;
  currency: Currency;
  returnUrl: string;
  cancelUrl: string;
  expiresIn: number;
  pairs: Pair[];
}

/** The fields whose mistakes are shown under them rather than at the end of the form. */
type FieldName = 'amount' | 'returnUrl' | 'cancelUrl';
type FieldErrors = Partial<Record<FieldName, string>>;

/** The session as the gateway is asked for it, or why the form cannot be sent (and which field). */
const sessionBody = (
  d: Draft,
  t: Translate,
): { body: BodyOf<'createCheckoutSessionDashboard'> } | { refused: string; field?: FieldName } => {
  const exact = d.fixed ? parseAmountInput(d.amount) : undefined;
  if (d.fixed && (!exact || !inBounds(exact))) return { refused: t('sessionAmountInvalid'), field: 'amount' };
  if (!isWebUrl(d.returnUrl.trim())) return { refused: t('returnUrlInvalid'), field: 'returnUrl' };
  if (d.cancelUrl.trim() && !isWebUrl(d.cancelUrl.trim()))
    return { refused: t('cancelUrlInvalid'), field: 'cancelUrl' };
  const filled = d.pairs.filter((p) => p.key.trim() || p.value.trim());
  if (filled.some((p) => !p.key.trim()) || new Set(filled.map((p) => p.key.trim())).size !== filled.length)
    return { refused: t('metadataInvalid') };
  return {
    body: {
      ...(exact ? { amount: exact } : {}),
      currency: d.currency,
      return_url: d.returnUrl.trim(),
      ...(d.cancelUrl.trim() ? { cancel_url: d.cancelUrl.trim() } : {}),
      expires_in: d.expiresIn,
      ...(filled.length ? { metadata: Object.fromEntries(filled.map((p) => [p.key.trim(), p.value])) } : {}),
    },
  };
};

/** Up to five key and value pairs kept with the session. */
const MetadataPairs = ({
  t,
  pairs,
  onPairs,
}: {
  t: Translate;
  pairs: Pair[];
  onPairs: (p: Pair[]) => void;
}) => {
  const setPair = (i: number, next: Partial<Pair>) =>
    onPairs(pairs.map((p, j) => (j === i ? { ...p, ...next } : p)));
  return (
    <fieldset>
      <legend>{t('metadata')}</legend>
      <p class="hint">{t('metadataHint', { max: METADATA_MAX_PAIRS })}</p>
      {pairs.map((p, i) => (
        <div class="row pair" key={i}>
          <input
            aria-label={t('metadataKeyN', { n: i + 1 })}
            maxLength={METADATA_KEY_MAX}
            value={p.key}
            onInput={(ev) => setPair(i, { key: ev.currentTarget.value })}
          />
          <input
            aria-label={t('metadataValueN', { n: i + 1 })}
            maxLength={METADATA_VALUE_MAX}
            value={p.value}
            onInput={(ev) => setPair(i, { value: ev.currentTarget.value })}
          />
          <button
            type="button"
            class="secondary small"
            aria-label={t('removePairN', { n: i + 1 })}
            onClick={() => onPairs(pairs.filter((_, j) => j !== i))}
          >
            {t('remove')}
          </button>
        </div>
      ))}
      {pairs.length < METADATA_MAX_PAIRS && (
        <button
          type="button"
          class="secondary small"
          onClick={() => onPairs([...pairs, { key: '', value: '' }])}
        >
          {t('addPair')}
        </button>
      )}
    </fieldset>
  );
};

/** Whether the session asks a fixed amount, that amount, its currency and how long it stays open. */
const AmountFields = ({
  t,
  lang,
  draft,
  set,
  currencies,
  error,
}: {
  t: Translate;
  lang: string;
  draft: Draft;
  set: (next: Partial<Draft>) => void;
  currencies: readonly Currency[];
  error: string | undefined;
}) => (
  <>
    <fieldset>
      <legend>{t('sessionAmountKind')}</legend>
      <RadioOption name="amount-kind" checked={draft.fixed} onChoose={() => set({ fixed: true })}>
        {t('fixedAmount')}
      </RadioOption>
      <RadioOption name="amount-kind" checked={!draft.fixed} onChoose={() => set({ fixed: false })}>
        {t('customerAmount')}
      </RadioOption>
    </fieldset>
    <div class="filter-grid">
      {draft.fixed && (
        <div class="field">
          <TextField
            id="session-amount"
            label={t('colAmount')}
            inputMode="decimal"
            value={draft.amount}
            placeholder={formatAmount('25', lang)}
            onValue={(amount) => set({ amount })}
            error={error}
          />
        </div>
      )}
      <CurrencySelect
        id="session-currency"
        label={t('currency')}
        value={draft.currency}
        currencies={currencies}
        onChoose={(currency) => set({ currency })}
      />
      <div class="field">
        <label for="session-expiry">{t('expiresAfter')}</label>
        <select
          id="session-expiry"
          value={draft.expiresIn}
          onChange={(ev) => set({ expiresIn: Number(ev.currentTarget.value) })}
        >
          {EXPIRY_CHOICES.map((c) => (
            <option key={c.seconds} value={c.seconds}>
              {t(c.key)}
            </option>
          ))}
        </select>
      </div>
    </div>
  </>
);

/** A new checkout session: a fixed amount or one the customer enters, the URLs, expiry and metadata. */
export const CreateSessionForm = ({ onCreated }: { onCreated: (id: string) => void }) => {
  const { session, account, t, lang } = useDashboard();
  const currencies = account.merchant.accepted_currencies;
  const [draft, setDraft] = useState<Draft>({
    fixed: true,
    amount: '',
    currency: currencies[0] ?? 'USDC',
    returnUrl: '',
    cancelUrl: '',
    expiresIn: EXPIRY_CHOICES[0].seconds,
    pairs: [],
  });
  const set = (next: Partial<Draft>) => setDraft((d) => ({ ...d, ...next }));
  /** Both of the session's addresses are pages of the merchant's site the customer is sent back to. */
  const urlField = (name: 'returnUrl' | 'cancelUrl') => ({
    type: 'url',
    value: draft[name],
    onValue: (url: string) => set({ [name]: url }),
  });
  const { busy, error, submit } = useSubmit();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  // A retried submit (a lost answer) replays instead of making a second session.
  const idempotency = useIdempotencyKey();

  const create = async (body: BodyOf<'createCheckoutSessionDashboard'>) => {
    const made = await session.call('createCheckoutSessionDashboard', {
      body,
      idempotencyKey: idempotency.keyFor(body),
    });
    rememberSession(made.id, made.url);
    idempotency.done();
    set({ amount: '', pairs: [] });
    onCreated(made.id);
  };
  const onSubmit = (e: Event) => {
    e.preventDefault();
    const checked = sessionBody(draft, t);
    const field = 'refused' in checked ? checked.field : undefined;
    setFieldErrors(field && 'refused' in checked ? { [field]: checked.refused } : {});
    void submit(
      () => ('body' in checked ? create(checked.body) : Promise.resolve()),
      () => ('refused' in checked && !checked.field ? checked.refused : undefined),
    );
  };

  return (
    <TitledForm id="new-session" title={t('newCheckoutLink')} class="card form" onSubmit={onSubmit}>
      <AmountFields
        t={t}
        lang={lang}
        draft={draft}
        set={set}
        currencies={currencies}
        error={fieldErrors.amount}
      />
      <TextField
        id="session-return"
        {...urlField('returnUrl')}
        label={t('returnUrl')}
        placeholder="https://shop.example/thanks"
        hint={t('returnUrlHint')}
        error={fieldErrors.returnUrl}
      />
      <TextField
        id="session-cancel"
        {...urlField('cancelUrl')}
        label={t('cancelUrlOptional')}
        placeholder="https://shop.example/cart"
        error={fieldErrors.cancelUrl}
      />
      <MetadataPairs t={t} pairs={draft.pairs} onPairs={(pairs) => set({ pairs })} />
      <FormEnd error={error} busy={busy} label={busy ? t('creating') : t('createCheckoutLink')} />
    </TitledForm>
  );
};
