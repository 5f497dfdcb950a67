import { useState } from 'preact/hooks';
import { parseAmountInput } from '../../../format.js';
import { Alert, errorText } from '../../common.js';
import { useDashboard } from '../../context.js';
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

/** A new checkout session: a fixed amount or one the customer enters, the URLs, expiry and metadata. */
export const CreateSessionForm = ({ onCreated }: { onCreated: (id: string) => void }) => {
  const { session, account, t } = useDashboard();
  const currencies = account.merchant.accepted_currencies;
  const [fixed, setFixed] = useState(true);
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState(currencies[0] ?? 'USDC');
  const [returnUrl, setReturnUrl] = useState('');
  const [cancelUrl, setCancelUrl] = useState('');
  const [expiresIn, setExpiresIn] = useState<number>(EXPIRY_CHOICES[0].seconds);
  const [pairs, setPairs] = useState<Pair[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // A retried submit (a lost answer) replays instead of making a second session.
  const idempotency = useIdempotencyKey();

  const setPair = (i: number, next: Partial<Pair>) =>
    setPairs(pairs.map((p, j) => (j === i ? { ...p, ...next } : p)));

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    const exact = fixed ? parseAmountInput(amount) : undefined;
    if (fixed && (!exact || !inBounds(exact))) return setError(t('sessionAmountInvalid'));
    if (!isWebUrl(returnUrl.trim())) return setError(t('returnUrlInvalid'));
    if (cancelUrl.trim() && !isWebUrl(cancelUrl.trim())) return setError(t('cancelUrlInvalid'));
    const filled = pairs.filter((p) => p.key.trim() || p.value.trim());
    if (filled.some((p) => !p.key.trim()) || new Set(filled.map((p) => p.key.trim())).size !== filled.length)
      return setError(t('metadataInvalid'));
    setBusy(true);
    try {
      const body = {
        ...(exact ? { amount: exact } : {}),
        currency,
        return_url: returnUrl.trim(),
        ...(cancelUrl.trim() ? { cancel_url: cancelUrl.trim() } : {}),
        expires_in: expiresIn,
        ...(filled.length
          ? { metadata: Object.fromEntries(filled.map((p) => [p.key.trim(), p.value])) }
          : {}),
      };
      const made = await session.call('createCheckoutSessionDashboard', {
        body,
        idempotencyKey: idempotency.keyFor(body),
      });
      rememberSession(made.id, made.url);
      idempotency.done();
      setAmount('');
      setPairs([]);
      onCreated(made.id);
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card form" onSubmit={submit} noValidate aria-labelledby="new-session-title">
      <h2 id="new-session-title">{t('newCheckoutLink')}</h2>
      <fieldset>
        <legend>{t('sessionAmountKind')}</legend>
        <label class="inline">
          <input type="radio" name="amount-kind" checked={fixed} onChange={() => setFixed(true)} />{' '}
          {t('fixedAmount')}
        </label>
        <label class="inline">
          <input type="radio" name="amount-kind" checked={!fixed} onChange={() => setFixed(false)} />{' '}
          {t('customerAmount')}
        </label>
      </fieldset>
      <div class="filter-grid">
        {fixed && (
          <div class="field">
            <label for="session-amount">{t('colAmount')}</label>
            <input
              id="session-amount"
              inputMode="decimal"
              value={amount}
              placeholder="25.00"
              onInput={(ev) => setAmount(ev.currentTarget.value)}
            />
          </div>
        )}
        <div class="field">
          <label for="session-currency">{t('currency')}</label>
          <select
            id="session-currency"
            value={currency}
            onChange={(ev) => setCurrency(ev.currentTarget.value as typeof currency)}
          >
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="session-expiry">{t('expiresAfter')}</label>
          <select
            id="session-expiry"
            value={expiresIn}
            onChange={(ev) => setExpiresIn(Number(ev.currentTarget.value))}
          >
            {EXPIRY_CHOICES.map((c) => (
              <option key={c.seconds} value={c.seconds}>
                {t(c.key)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <label for="session-return">{t('returnUrl')}</label>
      <input
        id="session-return"
        type="url"
        value={returnUrl}
        placeholder="https://shop.example/thanks"
        onInput={(ev) => setReturnUrl(ev.currentTarget.value)}
        aria-describedby="session-return-hint"
      />
      <p id="session-return-hint" class="hint">
        {t('returnUrlHint')}
      </p>
      <label for="session-cancel">{t('cancelUrlOptional')}</label>
      <input
        id="session-cancel"
        type="url"
        value={cancelUrl}
        placeholder="https://shop.example/cart"
        onInput={(ev) => setCancelUrl(ev.currentTarget.value)}
      />
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
              onClick={() => setPairs(pairs.filter((_, j) => j !== i))}
            >
              {t('remove')}
            </button>
          </div>
        ))}
        {pairs.length < METADATA_MAX_PAIRS && (
          <button
            type="button"
            class="secondary small"
            onClick={() => setPairs([...pairs, { key: '', value: '' }])}
          >
            {t('addPair')}
          </button>
        )}
      </fieldset>
      {error && <Alert>{error}</Alert>}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? t('creating') : t('createCheckoutLink')}
        </button>
      </div>
    </form>
  );
};
