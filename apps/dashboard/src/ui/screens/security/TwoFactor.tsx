import { useMemo, useState } from 'preact/hooks';
import { renderSVG } from 'uqr';
import { formatDateTime } from '../../../format.js';
import { Alert, LoadView, errorText } from '../../common.js';
import { useDashboard } from '../../context.js';
import { useLoad } from '../../use-load.js';
import { RecoveryCodes } from './RecoveryCodes.js';

/** Two-factor sign-in: enrol an authenticator app with a QR code, new recovery codes, turn it off. */
export const TwoFactor = ({ onChanged }: { onChanged: () => void }) => {
  const { session, t, lang } = useDashboard();
  const [status, reloadStatus] = useLoad(() => session.call('getMfaStatus'), []);
  const reload = () => {
    reloadStatus();
    onChanged();
  };
  const [codes, setCodes] = useState<string[]>();
  return (
    <section class="card" aria-labelledby="mfa-title">
      <h2 id="mfa-title">{t('twoFactorTitle')}</h2>
      {codes && <RecoveryCodes codes={codes} onDismiss={() => setCodes(undefined)} />}
      <LoadView loaded={status} t={t} reload={reloadStatus}>
        {(s) =>
          s.totp_enabled ? (
            <>
              <p data-mfa-state="on">
                {t('twoFactorOn', { date: formatDateTime(s.enabled_at, lang) })}{' '}
                {t('recoveryCodesLeft', { count: s.recovery_codes_left })}
              </p>
              <NewCodes
                onCodes={(c) => {
                  setCodes(c);
                  reload();
                }}
              />
              <TurnOff onDone={reload} />
            </>
          ) : (
            <>
              <p data-mfa-state="off">{t('twoFactorOff')}</p>
              <Enrol
                onEnabled={(c) => {
                  setCodes(c);
                  reload();
                }}
              />
            </>
          )
        }
      </LoadView>
    </section>
  );
};

const Enrol = ({ onEnabled }: { onEnabled: (codes: string[]) => void }) => {
  const { session, t } = useDashboard();
  const [setup, setSetup] = useState<{ secret: string; otpauth_url: string }>();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // An SVG drawn here from the otpauth URI: the secret never leaves the page for a QR service.
  const qr = useMemo(
    () =>
      setup ? `data:image/svg+xml;base64,${btoa(renderSVG(setup.otpauth_url, { border: 2 }))}` : undefined,
    [setup],
  );

  if (!setup)
    return (
      <>
        <button
          type="button"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(undefined);
            try {
              setSetup(await session.call('setupTotp'));
            } catch (err) {
              setError(errorText(t, err));
            } finally {
              setBusy(false);
            }
          }}
        >
          {t('setUpTwoFactor')}
        </button>
        {error && <Alert>{error}</Alert>}
      </>
    );

  return (
    <form
      class="form"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        if (!/^\d{6}$/.test(code.trim())) return setError(t('sixDigits'));
        setBusy(true);
        setError(undefined);
        try {
          const r = await session.call('enableTotp', { body: { code: code.trim() } });
          onEnabled(r.recovery_codes);
        } catch (err) {
          setError(errorText(t, err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <p>{t('scanQr')}</p>
      <img class="qr" src={qr} width={200} height={200} alt={t('qrAlt')} />
      <p class="small-text">
        {t('orTypeSecret')} <code data-totp-secret>{setup.secret}</code>
      </p>
      <label for="enrol-code">{t('codeFromApp')}</label>
      <input
        id="enrol-code"
        inputMode="numeric"
        autocomplete="one-time-code"
        maxLength={6}
        value={code}
        onInput={(e) => setCode(e.currentTarget.value)}
      />
      {error && <Alert>{error}</Alert>}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {t('turnOnTwoFactor')}
        </button>
      </div>
    </form>
  );
};

const NewCodes = ({ onCodes }: { onCodes: (codes: string[]) => void }) => {
  const { session, t } = useDashboard();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  return (
    <form
      class="form sub-form"
      noValidate
      aria-labelledby="new-codes-title"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!/^\d{6}$/.test(code.trim())) return setError(t('sixDigits'));
        setError(undefined);
        try {
          const r = await session.call('regenerateRecoveryCodes', { body: { code: code.trim() } });
          setCode('');
          onCodes(r.recovery_codes);
        } catch (err) {
          setError(errorText(t, err));
        }
      }}
    >
      <h3 id="new-codes-title">{t('newRecoveryCodes')}</h3>
      <label for="codes-code">{t('codeFromApp')}</label>
      <input
        id="codes-code"
        inputMode="numeric"
        autocomplete="one-time-code"
        maxLength={6}
        value={code}
        onInput={(e) => setCode(e.currentTarget.value)}
      />
      {error && <Alert>{error}</Alert>}
      <div class="actions">
        <button type="submit" class="secondary">
          {t('makeNewCodes')}
        </button>
      </div>
    </form>
  );
};

const TurnOff = ({ onDone }: { onDone: () => void }) => {
  const { session, t } = useDashboard();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  return (
    <form
      class="form sub-form"
      noValidate
      aria-labelledby="turn-off-title"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!password || !code.trim()) return setError(t('passwordAndCode'));
        setError(undefined);
        try {
          await session.call('disableTotp', { body: { password, code: code.trim() } });
          onDone();
        } catch (err) {
          setError(errorText(t, err));
        }
      }}
    >
      <h3 id="turn-off-title">{t('turnOffTwoFactor')}</h3>
      <label for="off-password">{t('password')}</label>
      <input
        id="off-password"
        type="password"
        autocomplete="current-password"
        value={password}
        onInput={(e) => setPassword(e.currentTarget.value)}
      />
      <label for="off-code">{t('authCode')}</label>
      <input
        id="off-code"
        autocomplete="one-time-code"
        value={code}
        onInput={(e) => setCode(e.currentTarget.value)}
      />
      {error && <Alert>{error}</Alert>}
      <div class="actions">
        <button type="submit" class="danger">
          {t('turnOffTwoFactor')}
        </button>
      </div>
    </form>
  );
};
