import { useState } from 'preact/hooks';
import { formatAmount, parseAmountInput } from '../../../format.js';
import { Alert, errorText } from '../../common.js';
import { useDashboard } from '../../context.js';
import { navigate } from '../../router.js';
import { useIdempotencyKey } from '../../idempotency.js';
import { useLoad } from '../../use-load.js';
import type { Withdrawal } from './types.js';

interface Balance {
  blockchain: string;
  balances: Array<{ token: string; amount: string }>;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * A withdrawal from the merchant wallet to an address on its chain: an amount, or everything
 * available. A retried submit carries the same Idempotency-Key, so it never moves funds twice.
 */
export const WithdrawalForm = ({ onCreated }: { onCreated: () => void }) => {
  const { session, account, t, lang } = useDashboard();
  const [balance] = useLoad(() => session.call<Balance>('GET', '/wallets/balance'), []);
  const [currency, setCurrency] = useState(account.merchant.accepted_currencies[0] ?? 'USDC');
  const [amount, setAmount] = useState('');
  const [destination, setDestination] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const idempotency = useIdempotencyKey();
  const held =
    balance.state === 'ready' ? balance.data.balances.find((b) => b.token === currency)?.amount : undefined;

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    const exact = amount.trim() ? parseAmountInput(amount) : undefined;
    if (amount.trim() && (!exact || /^0\.0+$/.test(exact))) return setError(t('withdrawAmountInvalid'));
    if (!ADDRESS.test(destination.trim())) return setError(t('destinationInvalid'));
    setBusy(true);
    try {
      const body = { currency, destination_address: destination.trim(), ...(exact ? { amount: exact } : {}) };
      const made = await session.call<Withdrawal>('POST', '/withdrawals', body, idempotency.keyFor(body));
      idempotency.done();
      onCreated();
      navigate(`/money/withdrawals/${made.id}`);
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card form" onSubmit={submit} noValidate aria-labelledby="withdraw-title">
      <h2 id="withdraw-title">{t('requestWithdrawal')}</h2>
      <p class="muted">{t('withdrawIntro', { chain: account.merchant.blockchain })}</p>
      <div class="filter-grid">
        <div class="field">
          <label for="w-currency">{t('currency')}</label>
          <select id="w-currency" value={currency} onChange={(ev) => setCurrency(ev.currentTarget.value)}>
            {account.merchant.accepted_currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="w-amount">{t('colAmount')}</label>
          <input
            id="w-amount"
            inputMode="decimal"
            value={amount}
            onInput={(ev) => setAmount(ev.currentTarget.value)}
            aria-describedby="w-amount-hint"
          />
          <p id="w-amount-hint" class="hint">
            {held !== undefined
              ? t('withdrawAmountHint', { held: formatAmount(held, lang), currency })
              : t('withdrawAmountHintPlain')}
          </p>
        </div>
      </div>
      <label for="w-destination">{t('destinationAddress')}</label>
      <input
        id="w-destination"
        autoComplete="off"
        spellcheck={false}
        value={destination}
        placeholder="0x…"
        onInput={(ev) => setDestination(ev.currentTarget.value)}
      />
      {error && <Alert>{error}</Alert>}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? t('withdrawing') : t('withdraw')}
        </button>
      </div>
    </form>
  );
};
