import { useState } from 'preact/hooks';
import { ApiError } from '../../../api/errors.js';
import { errorText } from '../../common.js';
import { useDashboard } from '../../context.js';
import { useLoad, type Loaded } from '../../use-load.js';

/** A refusal explained on this screen rather than by the gateway. */
class StepUpNotice extends Error {}

const hasCode = (err: unknown, ...codes: string[]) =>
  err instanceof ApiError && err.details.some((d) => d.code !== undefined && codes.includes(d.code));

/**
 * Confirming that it is still the merchant before a change to where money may go: with two-factor
 * sign-in on, a code from the authenticator app goes with the request; otherwise the gateway wants
 * a recent sign-in, and when it says the sign-in is too old the password is asked for and the
 * session signs in again before the request is repeated.
 */
export type MfaStatus = Loaded<{ totp_enabled: boolean }>;

/** Whether two-factor sign-in is on: loaded once per screen, for every confirmation on it. */
export const useMfaStatus = (): MfaStatus => {
  const { session } = useDashboard();
  return useLoad(() => session.call('getMfaStatus'), [])[0];
};

export const useStepUp = (idPrefix: string, mfa: MfaStatus) => {
  const { session, account, t } = useDashboard();
  const mfaOn = mfa.state === 'ready' && mfa.data.totp_enabled;
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [askPassword, setAskPassword] = useState(false);

  const run = async <T,>(action: (mfaCode?: string) => Promise<T>): Promise<T> => {
    if (mfaOn && !/^\d{6}$/.test(code.trim())) throw new StepUpNotice(t('stepUpCodeInvalid'));
    if (!mfaOn && askPassword) {
      if (!password) throw new StepUpNotice(t('stepUpPasswordMissing'));
      const signedIn = await session.reauthenticate(account.user.email, password);
      setPassword('');
      if (!signedIn) throw new StepUpNotice(t('stepUpUseCode'));
      setAskPassword(false);
    }
    try {
      const result = await action(mfaOn ? code.trim() : undefined);
      setCode('');
      return result;
    } catch (err) {
      if (hasCode(err, 'reauthentication_required')) {
        setAskPassword(true);
        throw new StepUpNotice(t('stepUpPasswordIntro'));
      }
      // Each code is accepted once: the next attempt needs the app's next code.
      if (hasCode(err, 'mfa_code_invalid', 'mfa_code_required')) setCode('');
      throw err;
    }
  };

  const fields = mfaOn ? (
    <div class="field">
      <label for={`${idPrefix}-code`}>{t('stepUpCode')}</label>
      <input
        id={`${idPrefix}-code`}
        class="narrow"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={code}
        onInput={(e) => setCode(e.currentTarget.value)}
        aria-describedby={`${idPrefix}-code-hint`}
      />
      <p id={`${idPrefix}-code-hint`} class="hint">
        {t('stepUpCodeHint')}
      </p>
    </div>
  ) : askPassword ? (
    <div class="field">
      <label for={`${idPrefix}-password`}>{t('stepUpPassword')}</label>
      <input
        id={`${idPrefix}-password`}
        class="narrow"
        type="password"
        autoComplete="current-password"
        value={password}
        onInput={(e) => setPassword(e.currentTarget.value)}
      />
    </div>
  ) : null;

  return { fields, run, ready: mfa.state !== 'loading' };
};

/** What a person reads when a confirmed action failed. */
export const stepUpErrorText = (t: Parameters<typeof errorText>[0], err: unknown): string =>
  err instanceof StepUpNotice ? err.message : errorText(t, err);
