import { useState } from 'preact/hooks';
import { ApiError } from '../../api/errors.js';
import type { Session } from '../../api/session.js';
import type { Translate } from '../../i18n.js';
import { Alert, errorText } from '../common.js';
import { href } from '../router.js';

export const SignIn = ({ session, t, expired }: { session: Session; t: Translate; expired: boolean }) => {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await session.signIn(email.trim(), password);
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 401
          ? t('invalidCredentials')
          : err instanceof ApiError && err.status === 429
            ? t('tooManyAttempts', { seconds: err.retryAfter ?? 60 })
            : errorText(t, err),
      );
      setBusy(false);
    }
  };

  return (
    <main id="main" class="narrow">
      <h1>{t('signInTitle')}</h1>
      {expired && !error && <Alert kind="ok">{t('sessionExpired')}</Alert>}
      <form class="card form" onSubmit={submit} noValidate>
        <label for="email">{t('email')}</label>
        <input
          id="email"
          type="email"
          autocomplete="username"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <label for="password">{t('password')}</label>
        <input
          id="password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        {error && <Alert>{error}</Alert>}
        <button type="submit" disabled={busy}>
          {busy ? t('signingIn') : t('signIn')}
        </button>
      </form>
      <p>
        {t('noAccount')} <a href={href('/register')}>{t('createAccount')}</a>
      </p>
    </main>
  );
};
