import { useMemo, useState } from 'preact/hooks';
import { renderSVG } from 'uqr';
import { Alert } from '../../common.js';
import { useDashboard } from '../../context.js';
import {
  CodeField,
  FormEnd,
  PasswordField,
  TextField,
  TitledForm,
  useFormFields,
  useSubmit,
} from '../../form.js';

const SIX_DIGITS = /^\d{6}$/;

/** Turning two-factor sign-in on: a secret from the gateway, shown as a QR code, proven with a code. */
export const Enrol = ({ onEnabled }: { onEnabled: (codes: string[]) => void }) => {
  const { session, t } = useDashboard();
  const [setup, setSetup] = useState<{ secret: string; otpauth_url: string }>();
  const [code, setCode] = useState('');
  const { busy, error, submit, onSubmit } = useSubmit();
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
          onClick={() => void submit(async () => setSetup(await session.call('setupTotp')))}
        >
          {t('setUpTwoFactor')}
        </button>
        {error && <Alert>{error}</Alert>}
      </>
    );

  const enable = async () => {
    const r = await session.call('enableTotp', { body: { code: code.trim() } });
    onEnabled(r.recovery_codes);
  };
  return (
    <form
      class="form"
      noValidate
      onSubmit={onSubmit(enable, () => (SIX_DIGITS.test(code.trim()) ? undefined : t('sixDigits')))}
    >
      <p>{t('scanQr')}</p>
      <img class="qr" src={qr} width={200} height={200} alt={t('qrAlt')} />
      <p class="small-text">
        {t('orTypeSecret')} <code data-totp-secret>{setup.secret}</code>
      </p>
      <CodeField id="enrol-code" label={t('codeFromApp')} value={code} onValue={setCode} />
      <FormEnd error={error} busy={busy} label={t('turnOnTwoFactor')} />
    </form>
  );
};

/** New recovery codes (the old ones stop working), for a current authenticator code. */
export const NewCodes = ({ onCodes }: { onCodes: (codes: string[]) => void }) => {
  const { session, t } = useDashboard();
  const [code, setCode] = useState('');
  const { busy, error, onSubmit } = useSubmit();
  const regenerate = async () => {
    const r = await session.call('regenerateRecoveryCodes', { body: { code: code.trim() } });
    setCode('');
    onCodes(r.recovery_codes);
  };
  return (
    <TitledForm
      id="new-codes"
      title={t('newRecoveryCodes')}
      level={3}
      class="form sub-form"
      onSubmit={onSubmit(regenerate, () => (SIX_DIGITS.test(code.trim()) ? undefined : t('sixDigits')))}
    >
      <CodeField id="codes-code" label={t('codeFromApp')} value={code} onValue={setCode} />
      <FormEnd error={error} busy={busy} label={t('makeNewCodes')} buttonClass="secondary" />
    </TitledForm>
  );
};

/** Turning two-factor sign-in off takes both the password and a code (or a recovery code). */
export const TurnOff = ({ onDone }: { onDone: () => void }) => {
  const { session, t } = useDashboard();
  const { values, field } = useFormFields('off', { password: '', code: '' });
  const { password, code } = values;
  const { busy, error, onSubmit } = useSubmit();
  const turnOff = async () => {
    await session.call('disableTotp', { body: { password, code: code.trim() } });
    onDone();
  };
  return (
    <TitledForm
      id="turn-off"
      title={t('turnOffTwoFactor')}
      level={3}
      class="form sub-form"
      onSubmit={onSubmit(turnOff, () => (password && code.trim() ? undefined : t('passwordAndCode')))}
    >
      <PasswordField {...field('password')} purpose="current" label={t('password')} />
      <TextField {...field('code')} label={t('authCode')} autocomplete="one-time-code" />
      <FormEnd error={error} busy={busy} label={t('turnOffTwoFactor')} buttonClass="danger" />
    </TitledForm>
  );
};
