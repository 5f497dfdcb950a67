import { useState } from 'preact/hooks';
import { ApiError } from '../../api/errors.js';
import type { Session } from '../../api/session.js';
import type { Translate } from '../../i18n.js';
import { Alert, errorText } from '../common.js';
import { PasswordField, TextField, useFormFields } from '../form.js';
import { href } from '../router.js';

export const SignIn = ({ session, t, expired }: { session: Session; t: Translate; expired: boolean }) => {
  const { values, field, set } = useFormFields('', { email: '', password: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [mfaToken, setMfaToken] = useState<string>();

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const challenge = await session.signIn(values.email.trim(), values.password);
      if (challenge) {
        set({ password: '' });
        setMfaToken(challenge.mfaToken);
        setBusy(false);
      }
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 401
          ? t('invalidCredentials')
          : err instanceof ApiError && err.details.some((d) => d.code === 'account_locked')
            ? t('accountLocked', { minutes: Math.max(1, Math.ceil((err.retryAfter ?? 60) / 60)) })
            : err instanceof ApiError && err.status === 429
              ? t('tooManyAttempts', { seconds: err.retryAfter ?? 60 })
              : errorText(t, err),
      );
      setBusy(false);
    }
  };

  if (mfaToken)
    return (
      <SecondStep
        session={session}
        t={t}
        mfaToken={mfaToken}
        onRestart={() => {
          setMfaToken(undefined);
          setError(t('signInAgain'));
        }}
      />
    );

  return (
    <main id="main" class="narrow">
      <h1>{t('signInTitle')}</h1>
      {expired && !error && <Alert kind="ok">{t('sessionExpired')}</Alert>}
      <form class="card form" onSubmit={submit} noValidate>
        <TextField {...field('email')} label={t('email')} type="email" autocomplete="username" required />
        <PasswordField {...field('password')} purpose="current" label={t('password')} required />
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

/** The code from the authenticator app (or a recovery code), after the password was accepted. */
const SecondStep = ({
  session,
  t,
  mfaToken,
  onRestart,
}: {
  session: Session;
  t: Translate;
  mfaToken: string;
  onRestart: () => void;
}) => {
  const { values, field } = useFormFields('mfa', { code: '' });
  const { code } = values;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!code.trim()) return setError(t('codeRequired'));
    setBusy(true);
    setError(undefined);
    try {
      await session.signInWithCode(mfaToken, code.trim());
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 401) {
        // A spent or expired challenge: the password must be given again.
        const left = err.details.find((d) => d.path === 'code');
        if (!left) return onRestart();
        setError(t('codeWrong', { left: /\d+/.exec(left.message)?.[0] ?? '?' }));
      } else if (err instanceof ApiError && err.status === 429) {
        setError(t('tooManyAttempts', { seconds: err.retryAfter ?? 60 }));
      } else setError(errorText(t, err));
    }
  };
  return (
    <main id="main" class="narrow">
      <h1>{t('twoFactorTitle')}</h1>
      <form class="card form" onSubmit={submit} noValidate>
        <TextField
          {...field('code')}
          label={t('authCode')}
          autocomplete="one-time-code"
          inputMode="text"
          autoFocus
          hint={t('authCodeHint')}
        />
        {error && <Alert>{error}</Alert>}
        <button type="submit" disabled={busy}>
          {busy ? t('signingIn') : t('verify')}
        </button>
      </form>
    </main>
  );
};
