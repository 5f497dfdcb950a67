import { useState } from 'preact/hooks';
import { useDashboard } from '../../context.js';
import { AuditLog } from './AuditLog.js';
import { ChangePassword } from './ChangePassword.js';
import { TwoFactor } from './TwoFactor.js';

/** Account security: two-factor sign-in, the password, and the audit log. */
export const Security = () => {
  const { t } = useDashboard();
  // Bumped by each change made here, so the audit log shows it at once.
  const [round, setRound] = useState(0);
  const changed = () => setRound((r) => r + 1);
  return (
    <>
      <h1>{t('securityTitle')}</h1>
      <div class="columns">
        <TwoFactor onChanged={changed} />
        <ChangePassword onChanged={changed} />
      </div>
      <AuditLog round={round} />
    </>
  );
};
