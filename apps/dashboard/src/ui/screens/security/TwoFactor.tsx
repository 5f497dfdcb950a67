import { useState } from 'preact/hooks';
import { formatDateTime } from '../../../format.js';
import { LoadView } from '../../common.js';
import { useDashboard } from '../../context.js';
import { useLoad } from '../../use-load.js';
import { RecoveryCodes } from './RecoveryCodes.js';
import { Enrol, NewCodes, TurnOff } from './two-factor-forms.js';

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
