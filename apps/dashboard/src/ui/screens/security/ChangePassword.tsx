import { useState } from 'preact/hooks';
import { Alert, errorText } from '../../common.js';
import { useDashboard } from '../../context.js';

const MIN = 12;
const MAX = 128;

/** A new password: every other session ends, and this one carries on with the tokens handed back. */
export const ChangePassword = ({ onChanged }: { onChanged: () => void }) => {
  const { session, t } = useDashboard();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setDone(false);
    if (!current) return setError(t('currentPasswordRequired'));
    if (next.length < MIN || next.length > MAX) return setError(t('passwordHint'));
    if (next !== repeat) return setError(t('passwordsDiffer'));
    setBusy(true);
    try {
      const pair = await session.call('changePassword', {
        body: { current_password: current, new_password: next },
      });
      session.replaceTokens(pair);
      setCurrent('');
      setNext('');
      setRepeat('');
      setDone(true);
      onChanged();
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card form" onSubmit={submit} noValidate aria-labelledby="password-title">
      <h2 id="password-title">{t('changePassword')}</h2>
      <label for="pw-current">{t('currentPassword')}</label>
      <input
        id="pw-current"
        type="password"
        autocomplete="current-password"
        value={current}
        onInput={(e) => setCurrent(e.currentTarget.value)}
      />
      <label for="pw-new">{t('newPassword')}</label>
      <input
        id="pw-new"
        type="password"
        autocomplete="new-password"
        value={next}
        maxLength={MAX}
        aria-describedby="pw-new-hint"
        onInput={(e) => setNext(e.currentTarget.value)}
      />
      <p id="pw-new-hint" class="hint">
        {t('passwordHint')} {t('passwordChangeEnds')}
      </p>
      <label for="pw-repeat">{t('repeatPassword')}</label>
      <input
        id="pw-repeat"
        type="password"
        autocomplete="new-password"
        value={repeat}
        maxLength={MAX}
        onInput={(e) => setRepeat(e.currentTarget.value)}
      />
      {error && <Alert>{error}</Alert>}
      {done && <Alert kind="ok">{t('passwordChanged')}</Alert>}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {t('changePassword')}
        </button>
      </div>
    </form>
  );
};
