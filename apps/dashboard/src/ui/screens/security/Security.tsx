import { useDashboard } from '../../context.js';
import { AuditLog } from './AuditLog.js';
import { ChangePassword } from './ChangePassword.js';
import { TwoFactor } from './TwoFactor.js';

/** Account security: two-factor sign-in, the password, and the audit log. */
export const Security = () => {
  const { t } = useDashboard();
  return (
    <>
      <h1>{t('securityTitle')}</h1>
      <div class="columns">
        <TwoFactor />
        <ChangePassword />
      </div>
      <AuditLog />
    </>
  );
};
